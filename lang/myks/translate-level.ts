/**
 * Values an application derives from its environment (spec: "Values an
 * application derives from its environment"): an app-data file loading
 * `@myks:data.lib.yaml` reads its environment's data values as `env_data`,
 * which a level's KCL files read as `_level`. Such a value never resolves
 * standalone, so it is frozen per leaf; where its expression translates, the
 * leaf states the derivation instead, and migrate proves it there (the leaf
 * evaluated against the legacy value), keeping the literal where it differs.
 */
import { isTemplated, type SourceValues } from './sources.js';
import { templateExpr } from './translate-text.js';
import { readProgram } from './translate-program.js';
import { readsOf, toKclExpr } from './translate-expr.js';
import { withCalls, type Lambda, type YttLibrary } from './translate-library.js';

const MYKS_DATA = '@myks:data.lib.yaml';

/** The `_level` derivation of the value at `path`, from the last of `srcs` that states it, when it translates. */
export function levelDerivation(
  srcs: readonly SourceValues[],
  path: readonly string[],
  lib?: YttLibrary,
): { expr: string; lambdas: Lambda[] } | undefined {
  const key = path.join('.');
  for (const s of [...srcs].reverse()) {
    const n = s.byPath.get(key);
    if (!n || !s.template) continue;
    const templated = typeof n.scalar === 'string' && isTemplated(s.template, n);
    if (!n.code && !templated) return undefined;
    const refs = new Map<string, string>();
    const stmts = readProgram(s.template.program);
    const modules = new Map<string, string>(); // a library lambda's name → the module it comes from
    for (const st of stmts) {
      if (st.k !== 'load') continue;
      for (const x of st.names)
        if (st.module === MYKS_DATA) {
          if (x.exported === 'env_data') refs.set(x.local, '_level');
        } else if (lib?.pkg !== undefined && lib.lambda(st.module, x.exported)) {
          refs.set(x.local, `${lib.pkg}.${x.exported}`);
          modules.set(x.exported, st.module);
        }
    }
    // a prelude variable bound once, by an expression that translates, is read as that expression
    const once = (name: string): boolean =>
      stmts.filter((x) => (x.k === 'assign' && x.name === name) || (x.k === 'other' && x.names.includes(name)))
        .length === 1;
    for (const st of stmts)
      if (st.k === 'assign' && once(st.name) && !refs.has(st.name)) {
        const e = toKclExpr(st.expr, refs);
        if (e !== undefined) refs.set(st.name, `(${e})`);
      }
    const e = n.code
      ? toKclExpr(n.code.text.replace(/^#@\s*/, ''), refs)
      : templateExpr(n.scalar as string, refs, new Set());
    // an expression reading nothing of the environment is not this translation's (nor is it frozen per leaf)
    if (e === undefined || !/(?<![\w.])_level\b/.test(e)) return undefined;
    const lambdas = readsOf(e, lib?.pkg ?? '\u0000').lambdas.flatMap((n) =>
      withCalls(lib!, modules.get(n)!, lib!.lambda(modules.get(n)!, n)!),
    );
    return { expr: e, lambdas };
  }
  return undefined;
}
