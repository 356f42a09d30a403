/**
 * The repository's ytt library as KCL lambdas: every `def` of a top-level
 * `.star` or `.lib.yaml` file of the library directory whose body is a single
 * `return` becomes `name = lambda params { expr }` in `<lib-dir>/<file>.k`,
 * one package the generated files import (`import lib`, `lib.sops(...)`). A
 * body may read its parameters, the shared builtins, the other lambdas of its
 * file and the constants it binds once (`PREFIX = "..."`, written above). A name two library files define is left alone: one package holds
 * them all, and a public name may be bound once. Whether a lambda means what
 * the def meant is proved where it is called (translate.ts).
 */
import { parseTemplate } from '../ytt/index.js';
import { readProgram, starProgram } from './translate-program.js';
import { toKclExpr } from './translate-expr.js';
import { isIdent } from './kcl-write.js';

export interface Lambda {
  /** the generated file, `lib/secrets.k` */
  file: string;
  name: string;
  text: string;
  /** the lambdas of the same file it calls */
  calls: string[];
}

export interface LibraryContext {
  read(path: string): string | undefined;
  /** load() name → repository path, as lang/ytt's myks layout lists it */
  library: Record<string, string>;
  /** `file\0dotted.path` of map-valued derivations kept as literals (migrate's second pass) */
  dropMaps?: ReadonlySet<string>;
}

const LIB_FILE = /^([A-Za-z_]\w*)\.(star|lib\.yaml)$/;

/** The lambdas of one library, computed once per library map. */
export class YttLibrary {
  /** the package the generated files import, the library directory's name */
  readonly pkg: string | undefined;
  private readonly dir: string | undefined;
  private readonly defs = new Map<string, Map<string, { params?: string; expr: string }>>();
  private readonly lambdas = new Map<string, Map<string, Lambda>>();
  private readonly names = new Map<string, number>();

  constructor(private readonly ctx: LibraryContext) {
    const tops = Object.entries(ctx.library).filter(([name, path]) => LIB_FILE.test(name) && path.endsWith(`/${name}`));
    const dirs = new Set(tops.map(([name, path]) => path.slice(0, -name.length - 1)));
    const dir = dirs.size === 1 ? [...dirs][0]! : undefined;
    this.dir = dir !== undefined && !dir.includes('/') && isIdent(dir) ? dir : undefined;
    this.pkg = this.dir;
    if (this.dir === undefined) return;
    for (const [name, path] of tops) {
      const text = ctx.read(path);
      if (text === undefined) continue;
      let program;
      try {
        program = name.endsWith('.star') ? starProgram(text, path) : parseTemplate(path, text).program;
      } catch {
        continue; // not YAML: ytt reports it where the file is loaded; nothing of it is translated
      }
      // its defs, and the constants they read (`PREFIX = "ref+sops://"`), each bound once
      const defs = new Map<string, { params?: string; expr: string }>();
      const bad = new Set<string>();
      for (const s of readProgram(program)) {
        const n = s.k === 'def' || s.k === 'assign' ? s.name : undefined;
        if (n !== undefined && defs.has(n)) bad.add(n);
        if (s.k === 'def') defs.set(s.name, { params: s.params, expr: s.expr });
        else if (s.k === 'assign') defs.set(s.name, { expr: s.expr });
        else if (s.k === 'other' || s.k === 'append')
          for (const x of s.k === 'other' ? s.names : s.appends.map((a) => a.target)) bad.add(x);
      }
      for (const n of bad) defs.delete(n);
      this.defs.set(name, defs);
      for (const n of defs.keys()) this.names.set(n, (this.names.get(n) ?? 0) + 1);
    }
  }

  /** The lambda a `load(module, exported)` names, when its def translates. */
  lambda(module: string, exported: string): Lambda | undefined {
    if (this.dir === undefined || !this.defs.has(module)) return undefined;
    let byName = this.lambdas.get(module);
    if (!byName) {
      byName = this.translateFile(module);
      this.lambdas.set(module, byName);
    }
    return byName.get(exported);
  }

  private translateFile(module: string): Map<string, Lambda> {
    const defs = this.defs.get(module)!;
    const file = `${this.dir}/${LIB_FILE.exec(module)![1]}.k`;
    const ok = new Set([...defs.keys()].filter((n) => this.names.get(n) === 1 && isIdent(n)));
    const out = new Map<string, Lambda>();
    // a lambda translates when its body does, calling only lambdas that translate
    for (let changed = true; changed;) {
      changed = false;
      for (const n of [...ok]) {
        const refs = new Map([...ok].map((x) => [x, x]));
        const l = lambdaText(n, defs.get(n)!, refs);
        if (l === undefined) {
          ok.delete(n);
          changed = true;
        } else out.set(n, { file, name: n, ...l });
      }
    }
    for (const n of out.keys()) if (!ok.has(n)) out.delete(n);
    return out;
  }
}

function lambdaText(
  name: string,
  def: { params?: string; expr: string },
  refs: ReadonlyMap<string, string>,
): { text: string; calls: string[] } | undefined {
  const reads = (kcl: string): string[] =>
    [...refs.keys()].filter((n) => n !== name && new RegExp(`(?<![\\w.])${n}(?!\\w)`).test(kcl));
  if (def.params === undefined) {
    const e = toKclExpr(def.expr, refs);
    return e === undefined ? undefined : { text: `${name} = ${e}`, calls: reads(e) };
  }
  const params: string[] = [];
  const names = new Set<string>();
  for (const p of def.params
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const m = /^([A-Za-z_]\w*)(?:\s*=\s*(.+))?$/.exec(p);
    if (!m || !isIdent(m[1]!)) return undefined;
    const dflt = m[2] === undefined ? undefined : toKclExpr(m[2], new Map());
    if (m[2] !== undefined && dflt === undefined) return undefined;
    names.add(m[1]!);
    params.push(dflt === undefined ? m[1]! : `${m[1]} = ${dflt}`);
  }
  const body = toKclExpr(def.expr, refs, names);
  if (body === undefined) return undefined;
  const calls = reads(body);
  const indented = body
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  const head = params.length > 0 ? `lambda ${params.join(', ')} {` : 'lambda {';
  return { text: `${name} = ${head}\n${indented}\n}`, calls };
}

/** The lambdas to write, grouped by file in name order (a lambda two files call is written once). */
export function lambdaFiles(lambdas: readonly Lambda[]): Map<string, string> {
  const files = new Map<string, Map<string, Lambda>>();
  for (const l of lambdas) files.set(l.file, (files.get(l.file) ?? new Map<string, Lambda>()).set(l.name, l));
  const out = new Map<string, string>();
  for (const [f, ls] of [...files].sort(([a], [b]) => (a < b ? -1 : 1)))
    out.set(
      f,
      [
        '# ytt library functions as KCL lambdas (the .star sources stay: ytt templates still load them).',
        ...order([...ls.values()]).flatMap((l) => ['', l.text]),
        '',
      ].join('\n'),
    );
  return out;
}

/** A lambda and the lambdas of its file it calls, transitively. */
export function withCalls(lib: YttLibrary, module: string, l: Lambda): Lambda[] {
  const seen = new Map<string, Lambda>([[l.name, l]]);
  const todo = [...l.calls];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    const x = lib.lambda(module, n);
    if (!x) continue;
    seen.set(n, x);
    todo.push(...x.calls);
  }
  return [...seen.values()];
}

/** Constants first (in name order), then the lambdas (in name order). */
function order(ls: Lambda[]): Lambda[] {
  const isConst = (l: Lambda): boolean => !/^\S+ = lambda\b/.test(l.text);
  const byName = (a: Lambda, b: Lambda): number => (a.name < b.name ? -1 : 1);
  return [...ls.filter(isConst).sort(byName), ...ls.filter((l) => !isConst(l)).sort(byName)];
}
