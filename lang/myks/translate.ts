/**
 * Translated ytt computation (spec: "Translated ytt computation"): in a file
 * that resolves on its own, the derivations become KCL where the file's
 * values are written.
 *
 * - top-level assignments (`#@ port = 8080`) become module-level `_port`
 *   variables, with the comments written above and inside them, pruned to
 *   those a derivation reads; a `for` loop that only appends to a list is
 *   joined to the list's binding as a comprehension;
 * - `key: #@ expr` becomes the same expression;
 * - a `for`/`end` loop around one sequence item becomes a list comprehension,
 *   joined to the items stated around it;
 * - a `#@yaml/text-templated-strings` string becomes a KCL string
 *   interpolating the same expressions;
 * - a function `load()`ed from the repository's ytt library becomes a call of
 *   its lambda (translate-library.ts), a local single-return `def` a lambda.
 *
 * Nothing is taken on trust: the prelude, the lambdas and one variable per
 * derived value are evaluated by lang/kcl and compared with what ytt
 * resolved; a derivation that does not reproduce it (or does not evaluate)
 * stays the literal.
 */
import { evaluateKcl, memoryHost, toPlain as kclPlain } from '../kcl/index.js';
import type { TemplateFile, TemplateNode } from '../ytt/index.js';
import { Expr, isList, isMap, keyRef, scalarText, type Entry, type Value } from './kcl-write.js';
import type { SourceValues } from './sources.js';
import { clauseVars, readProgram, type Clause, type Stmt } from './translate-program.js';
import { oneGroup, readsOf, toKclExpr } from './translate-expr.js';
import { templateExpr } from './translate-text.js';
import { lambdaFiles, withCalls, YttLibrary, type Lambda, type LibraryContext } from './translate-library.js';

export { toKclExpr, templateExpr };

const libraries = new WeakMap<object, YttLibrary>();

/** The library of a conversion (one per library map: every file of a repository shares it). */
export function libraryOf(ctx: LibraryContext): YttLibrary {
  let lib = libraries.get(ctx.library);
  if (!lib) {
    lib = new YttLibrary(ctx);
    libraries.set(ctx.library, lib);
  }
  return lib;
}

export const canon = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canon).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : (JSON.stringify(v) ?? 'undefined');

export function plainOf(v: Value): unknown {
  if (v instanceof Expr) return plainOf(v.literal);
  if (isMap(v)) return Object.fromEntries(v.map.map((e) => [e.key, plainOf(e.value)]));
  if (isList(v)) return v.list.map((i) => plainOf(i.value));
  if (v !== null && typeof v === 'object' && 'v' in v) return v.v;
  return v;
}

interface Cand {
  path: (string | number)[];
  expr: string;
  /** the derivation of the key at `path`, not of its value */
  key?: boolean;
}

const TEMPLATED = 'yaml/text-templated-strings';
const RESERVED = ['level', 'apps', 'defaults', 'patch', 'ordered'];
const mentions = (text: string, name: string): boolean => new RegExp(`(?<![\\w.])${name}(?!\\w)`).test(text);

/** Replaces each proved derivation of `out.value` by its KCL expression; sets the prelude, imports and lambdas it reads. */
export function translate(t: TemplateFile, out: SourceValues, ctx: LibraryContext): void {
  const stmts = readProgram(t.program);
  const lib = libraryOf(ctx);
  const refs = new Map<string, string>();
  const lambdaByName = new Map<string, { module: string; lambda: Lambda }>();
  const poisoned = new Set<string>();
  const counts = new Map<string, number>();
  for (const s of stmts) {
    if (s.k === 'load')
      for (const n of s.names) {
        const l = lib.pkg === undefined ? undefined : lib.lambda(s.module, n.exported);
        if (l) {
          refs.set(n.local, `${lib.pkg}.${n.exported}`);
          lambdaByName.set(n.exported, { module: s.module, lambda: l });
        } else poisoned.add(n.local);
      }
    if (s.k === 'assign' || s.k === 'def') counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
    if (s.k === 'other') s.names.forEach((n) => poisoned.add(n));
    if (s.k === 'append') clauseVars(s.clauses).forEach((v) => poisoned.add(v));
    if (s.k === 'loop') for (const x of withNested(s)) clauseVars(x.clauses).forEach((v) => poisoned.add(v));
  }
  for (const [n, c] of counts) if (c > 1) poisoned.add(n);
  // `_level`, `_apps`... are the converter's own names in the files the prelude joins
  for (const n of RESERVED) poisoned.add(n);
  for (const n of poisoned) refs.delete(n);

  // the prelude: a name translates when its expression does, reading only names that translate
  const defs = stmts.filter(
    (s): s is Extract<Stmt, { k: 'assign' | 'def' }> => (s.k === 'assign' || s.k === 'def') && !poisoned.has(s.name),
  );
  const names = new Set(defs.map((d) => d.name));
  const scope = (): Map<string, string> => {
    const m = new Map(refs);
    for (const n of names) m.set(n, `_${n}`);
    return m;
  };
  const preludeExpr = (d: (typeof defs)[number], sc: Map<string, string>): string | undefined => {
    if (d.k === 'def') {
      // parameters, with their defaults (`port=443` → `port = 443`)
      const params: string[] = [];
      const own = new Set<string>();
      for (const p of d.params.split(',').map((x) => x.trim())) {
        if (p === '') continue;
        const m = /^([A-Za-z_]\w*)(?:\s*=\s*(.+))?$/.exec(p);
        const dflt = m?.[2] === undefined ? '' : toKclExpr(m[2], sc);
        if (!m || dflt === undefined) return undefined;
        own.add(m[1]!);
        params.push(dflt === '' ? m[1]! : `${m[1]} = ${dflt}`);
      }
      const body = toKclExpr(d.expr, sc, own);
      const head = params.length > 0 ? `lambda ${params.join(', ')} {` : 'lambda {';
      return body === undefined ? undefined : `${head}\n    ${body.split('\n').join('\n    ')}\n}`;
    }
    let text = toKclExpr(d.expr, sc);
    if (text === undefined) return undefined;
    text = withComments(t, d, text);
    const at = stmts.indexOf(d);
    for (const [j, a] of stmts.entries()) {
      const app = a.k === 'append' ? a.appends.find((x) => x.target === d.name) : undefined;
      if (a.k !== 'append' || !app) continue;
      if (j < at || !orderFree(t, stmts, at, j, d.name)) return undefined;
      const cl = clausesText(a.clauses, sc, new Set());
      const item = cl && toKclExpr(app.expr, sc, cl.bound);
      if (cl === undefined || item === undefined) return undefined;
      const base: string = /^(\[[\s\S]*\]|[\w.]+)$/.test(text) && oneGroup(text) ? text : `(${text})`;
      text = `${base} + [${item}${cl.text}]`;
    }
    return text;
  };
  for (let changed = true; changed;) {
    changed = false;
    const sc = scope();
    for (const d of defs)
      if (names.has(d.name) && preludeExpr(d, sc) === undefined) {
        names.delete(d.name);
        changed = true;
      }
  }
  const sc = scope();
  const kept = defs.filter((d) => names.has(d.name)).map((d) => ({ d, expr: preludeExpr(d, sc)! }));

  // candidate derivations
  const kids = (id: number): TemplateNode[] => t.nodes.filter((n) => n.parent === id);
  const loopOf = new Map<number, Extract<Stmt, { k: 'loop' }> & { tops: number[] }>();
  /** the items after the first of a loop yielding several */
  const yielded = new Set<number>();
  const blocked = new Set<number>();
  for (const s of stmts.flatMap((x): Stmt[] => (x.k === 'loop' ? withNested(x) : [x]))) {
    if (s.k === 'other') s.nodes.forEach((n) => blocked.add(n));
    if (s.k !== 'loop') continue;
    const inLoop = new Set(s.nodes);
    const tops = s.nodes.filter((n) => !inLoop.has(t.nodes[n]!.parent));
    // the items one iteration yields: sequence items of one array
    if (tops.every((n) => t.nodes[n]!.kind === 'arrayitem' && t.nodes[n]!.parent === t.nodes[tops[0]!]!.parent)) {
      loopOf.set(tops[0]!, { ...s, tops });
      tops.slice(1).forEach((n) => yielded.add(n));
    } else s.nodes.forEach((n) => blocked.add(n));
  }
  const templated = (n: TemplateNode): boolean => {
    for (let c: TemplateNode | undefined = n; c; c = t.nodes[c.parent])
      if (c.anns.some((a) => a.name === TEMPLATED)) return true;
    return false;
  };
  const scalarExpr = (n: TemplateNode, bound: Set<string>): string | undefined => {
    if (typeof n.scalar === 'string' && n.scalar.includes('(@') && templated(n))
      return templateExpr(n.scalar, sc, bound);
    return scalarText(n.scalar ?? null);
  };
  // an annotation inside a translated item may change what ytt makes of it; on the value itself
  // (`#@overlay/match missing_ok=True`) it only says how the value merges, which the proof sees
  const itemExpr = (n: TemplateNode, bound: Set<string>, root = false): string | undefined => {
    if ((!root && n.anns.some((a) => a.name !== TEMPLATED)) || blocked.has(n.id)) return undefined;
    if (n.code) return toKclExpr(n.code.text.replace(/^#@\s*/, ''), sc, bound);
    if (n.container === 'array') return arrayExpr(n, bound);
    if (n.container === 'map') {
      const parts: string[] = [];
      for (const k of kids(n.id)) {
        const v = itemExpr(k, bound);
        if (v === undefined || typeof k.key !== 'string') return undefined;
        if (templated(k) && k.key.includes('(@')) return undefined;
        parts.push(`${keyRef(k.key)} = ${v}`);
      }
      return `{${parts.join(', ')}}`;
    }
    return scalarExpr(n, bound);
  };
  const arrayExpr = (a: TemplateNode, bound: Set<string>): string | undefined => {
    const segs: string[] = [];
    let run: string[] = [];
    const flush = (): void => {
      if (run.length > 0) segs.push(`[${run.join(', ')}]`);
      run = [];
    };
    for (const k of kids(a.id)) {
      if (yielded.has(k.id)) continue;
      const loop = loopOf.get(k.id);
      if (loop?.branches) {
        // `if`/`elif`/`else` around items: the items of the branch that holds
        const parts: string[] = [];
        for (const b of loop.branches) {
          const own = new Set(b.nodes);
          const items = loop.tops.filter((n) => own.has(n)).map((n) => itemExpr(t.nodes[n]!, bound));
          const cond = b.cond === undefined ? '' : toKclExpr(b.cond, sc, bound);
          if (cond === undefined || items.some((x) => x === undefined)) return undefined;
          parts.push(`[${items.join(', ')}]`, cond);
        }
        if (loop.branches[loop.branches.length - 1]!.cond !== undefined) parts.push('[]', '');
        let text = parts[parts.length - 2]!;
        for (let j = parts.length - 4; j >= 0; j -= 2) text = `${parts[j]} if ${parts[j + 1]} else ${text}`;
        flush();
        segs.push(`(${text})`);
      } else if (loop) {
        // an `if` block outside any `for`: the items or nothing
        const lead = loop.clauses.findIndex((c) => 'v' in c);
        const guards = (lead < 0 ? loop.clauses : loop.clauses.slice(0, lead)) as { cond: string }[];
        const conds = guards.map((c) => toKclExpr(c.cond, sc, bound));
        const cl = clausesText(lead < 0 ? [] : loop.clauses.slice(lead), sc, bound);
        if (cl === undefined || conds.some((c) => c === undefined)) return undefined;
        const items = loop.tops.map((n) => itemExpr(t.nodes[n]!, cl.bound));
        if (items.some((x) => x === undefined)) return undefined;
        flush();
        let seg: string;
        if (cl.text === '') seg = `[${items.join(', ')}]`;
        else if (items.length === 1) seg = `[${items[0]}${cl.text}]`;
        else {
          // several items per iteration: one more clause over them
          const it = fresh([...cl.bound, ...(items.join(' ').match(/\w+/g) ?? [])]);
          seg = `[${it}${cl.text} for ${it} in [${items.join(', ')}]]`;
        }
        if (conds.length > 0)
          seg = `(${seg} if ${conds.length === 1 ? conds[0] : conds.map((c) => `(${c})`).join(' and ')} else [])`;
        segs.push(seg);
      } else {
        const v = itemExpr(k, bound);
        if (v === undefined) return undefined;
        run.push(v);
      }
    }
    flush();
    return segs.length === 0 ? '[]' : segs.join(' + ');
  };
  const cands: Cand[] = [];
  let sites = 0;
  const visit = (n: TemplateNode, path: (string | number)[]): void => {
    const code = (x: TemplateNode): boolean => x.code !== undefined || kids(x.id).some(code);
    if (blocked.has(n.id)) {
      if (code(n)) sites++;
      return;
    }
    const loops = n.container === 'array' && kids(n.id).some((k) => loopOf.has(k.id));
    if (loops || n.code || (typeof n.scalar === 'string' && n.scalar.includes('(@') && templated(n))) {
      sites++;
      const e = itemExpr(n, new Set(), true);
      if (e !== undefined) cands.push({ path, expr: e });
      return;
    }
    // an array some items of which a block repeats or drops: its indexes are not the template's
    if (n.container === 'array' && kids(n.id).some((k) => blocked.has(k.id))) {
      if (code(n)) sites++;
      return;
    }
    visitKids(n, path);
  };
  // a templated key (`(@= name @)-port:`) is a derivation of its entry's key: the kids of its map
  // are matched to the resolved entries by position, so every kid must stand for one entry
  const keyTemplated = (k: TemplateNode): boolean =>
    k.kind === 'mapitem' && typeof k.key === 'string' && k.key.includes('(@') && templated(k);
  const visitKids = (n: TemplateNode, path: (string | number)[]): void => {
    const ks = kids(n.id);
    let i = 0;
    const segs: (string | number)[] = ks.map((k) => (k.kind === 'arrayitem' ? i++ : String(k.key)));
    if (ks.some(keyTemplated)) {
      const holder = path.length === 0 ? { value: out.value ?? null } : find(out.value ?? { map: [] }, path);
      const m = holder?.value;
      if (!m || !isMap(m) || m.map.length !== ks.length || ks.some((k) => blocked.has(k.id))) {
        sites += ks.filter(keyTemplated).length;
        return;
      }
      m.map.forEach((e, j) => (segs[j] = e.key));
      ks.forEach((k, j) => {
        if (!keyTemplated(k)) return;
        sites++;
        const e = templateExpr(String(k.key), sc, new Set());
        if (e !== undefined) cands.push({ path: [...path, segs[j]!], expr: e, key: true });
      });
    }
    ks.forEach((k, j) => visit(k, [...path, segs[j]!]));
  };
  const docs = t.nodes.filter((n) => n.kind === 'doc');
  for (const d of docs)
    if (docs.length === 1) visitKids(d, []);
    else for (const k of kids(d.id)) visit(k, [String(k.key)]);
  if (cands.length === 0 || !out.value) {
    out.untranslated = sites;
    return;
  }

  // the proof
  const libCalls = (texts: string[]): Lambda[] =>
    [...new Set(texts.flatMap((x) => readsOf(x, lib.pkg ?? '\u0000').lambdas))].flatMap((n) => {
      const l = lambdaByName.get(n);
      return l ? withCalls(lib, l.module, l.lambda) : [];
    });
  const prelude = kept.map(({ d, expr }) => `_${d.name} = ${expr}`);
  const allLambdas = libCalls([...prelude, ...cands.map((c) => c.expr)]);
  const evaluate = (cs: readonly Cand[]): Record<string, unknown> => {
    const files: Record<string, string> = {};
    for (const [p, text] of lambdaFiles(allLambdas)) files[`/t/${p}`] = text;
    const imports = lib.pkg !== undefined && allLambdas.length > 0 ? [`import ${lib.pkg}`] : [];
    files['/t/main.k'] =
      [...imports, ...prelude, ...cs.map((c) => `v${cands.indexOf(c)} = ${c.expr}`)].join('\n') + '\n';
    return kclPlain(evaluateKcl(memoryHost(files), { paths: ['/t/main.k'] }).value) as Record<string, unknown>;
  };
  let results: Record<string, unknown> = {};
  try {
    results = evaluate(cands);
  } catch {
    // one derivation that fails does not take the others with it
    for (const c of cands)
      try {
        Object.assign(results, evaluate([c]));
      } catch {
        /* stays the literal */
      }
  }
  const used: string[] = [];
  cands.forEach((c, i) => {
    const holder = find(out.value!, c.path);
    if (c.key) {
      if (!holder || !(`v${i}` in results) || results[`v${i}`] !== c.path[c.path.length - 1]) return;
      (holder as Entry).keyExpr = c.expr;
      used.push(c.expr);
      return;
    }
    if (!holder || !(`v${i}` in results)) return;
    // a map is written as an override; migrate keeps the literal (a union, merging as ytt's
    // overlay did) where a leaf shows the merge mattered
    const dotted = c.path.join('.');
    if (isMap(holder.value) && ctx.dropMaps?.has(`${t.path}\u0000${dotted}`)) return;
    if (canon(results[`v${i}`]) !== canon(plainOf(holder.value))) return;
    if (isMap(holder.value)) (out.mapDerived ??= []).push(dotted);
    holder.value = new Expr(c.expr, holder.value);
    used.push(c.expr);
  });
  // pruned to the variables a derivation reads (and those they read)
  const reads = new Set(used.flatMap((u) => readsOf(u, '\u0000').vars));
  for (let grew = true; grew;) {
    grew = false;
    for (const { d, expr } of kept)
      if (reads.has(d.name))
        for (const v of readsOf(expr, '\u0000').vars)
          if (!reads.has(v)) {
            reads.add(v);
            grew = true;
          }
  }
  const keptUsed = kept.filter(({ d }) => reads.has(d.name));
  out.prelude = keptUsed.flatMap(({ d, expr }) => [...aboveComments(t, stmts, d), `_${d.name} = ${expr}`]);
  out.preludeNames = keptUsed.map(({ d }) => d.name);
  out.preludeTexts = keptUsed.map(({ expr }) => expr);
  out.lambdas = libCalls([...used, ...keptUsed.map((k) => k.expr)]);
  out.imports = out.lambdas.length > 0 && lib.pkg !== undefined ? [`import ${lib.pkg}`] : [];
  out.untranslated = sites - used.length;
}

type Holder = { value: Value };

function find(root: { map: unknown[] }, path: readonly (string | number)[]): Holder | undefined {
  let cur: Value = root as Value;
  let holder: Holder | undefined;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!isList(cur) || !cur.list[seg]) return undefined;
      holder = cur.list[seg]!;
    } else {
      if (!isMap(cur)) return undefined;
      holder = cur.map.find((x) => x.key === seg);
      if (!holder) return undefined;
    }
    cur = holder.value;
  }
  return holder;
}

/** Between a list's binding and a loop appending to it, nothing reads or binds the list. */
function orderFree(t: TemplateFile, stmts: readonly Stmt[], from: number, to: number, name: string): boolean {
  for (const s of stmts.slice(from + 1, to)) {
    const text =
      s.k === 'assign' || s.k === 'def'
        ? s.expr
        : s.k === 'other'
          ? s.text
          : s.k === 'append'
            ? [...clauseTexts(s.clauses), ...s.appends.flatMap((a) => [a.target, a.expr])].join('\n')
            : s.k === 'loop'
              ? clauseTexts(s.clauses).join('\n')
              : '';
    if (mentions(text, name)) return false;
  }
  const a = stmts[from] as { last: number };
  const b = stmts[to] as { first: number };
  return !t.nodes.some((n) => n.code && n.where.line > a.last && n.where.line < b.first && mentions(n.code.text, name));
}

/** The comments of the prelude: those of the document a statement precedes. */
function docComments(t: TemplateFile): { line: number; text: string }[] {
  return t.nodes
    .filter((n) => n.kind === 'doc')
    .flatMap((n) => n.comments.map((c) => ({ line: c.where.line, text: `#${c.text}` })));
}

function aboveComments(t: TemplateFile, stmts: readonly Stmt[], d: Stmt): string[] {
  if (d.k !== 'assign') return [];
  const i = stmts.indexOf(d);
  const prev = stmts
    .slice(0, i)
    .map((s) => ('last' in s ? s.last : 0))
    .reduce((a, b) => Math.max(a, b), 0);
  return docComments(t)
    .filter((c) => c.line > prev && c.line < d.first)
    .map((c) => c.text);
}

/** Comments between the lines of a statement spanning lines go between the same lines of the KCL. */
function withComments(t: TemplateFile, d: Extract<Stmt, { k: 'assign' }>, kcl: string): string {
  const inner = docComments(t).filter((c) => c.line > d.first && c.line < d.last);
  if (inner.length === 0) return kcl;
  const lines = kcl.split('\n');
  if (lines.length !== d.lines.length) return kcl;
  const out: string[] = [];
  lines.forEach((l, k) => {
    const indent = /^\s*/.exec(l)![0];
    for (const c of inner) if (c.line < d.lines[k]! && (k === 0 || c.line > d.lines[k - 1]!)) out.push(indent + c.text);
    out.push(l);
  });
  return out.join('\n');
}

/** The literals ytt resolved, back in place of the derivations (a level whose files bind one name twice). */
export function untranslate(v: Value): Value {
  if (v instanceof Expr) return v.literal;
  if (isMap(v)) return { map: v.map.map(({ keyExpr: _k, ...e }) => ({ ...e, value: untranslate(e.value) })) };
  if (isList(v)) return { list: v.list.map((i) => ({ ...i, value: untranslate(i.value) })) };
  return v;
}

/**
 * The preludes of files written into one KCL package (a level's files, a
 * prototype's proto.k): one namespace, so a file binding a name another file
 * binds differently keeps its literals; `bound` carries the names across the
 * files of the package.
 */
export function joinPreludes(
  srcs: readonly SourceValues[],
  bound: Map<string, string>,
  prefix?: string,
): {
  lines: string[];
  imports: string[];
  lambdas: Lambda[];
  values: ({ map: Entry[] } | undefined)[];
  /** the files that keep their literals */
  clashes: string[];
} {
  const lines: string[] = [];
  const clashes: string[] = [];
  const imports = new Set<string>();
  const lambdas: Lambda[] = [];
  const clash = (s: SourceValues): boolean =>
    s.preludeNames.some((n, i) => bound.has(n) && bound.get(n) !== (s.preludeTexts ?? [])[i]);
  const values = srcs.map((src) => {
    // an application file's helper is prefixed with the application's name where the level binds it otherwise
    const s = clash(src) && prefix !== undefined ? prefixed(src, prefix) : src;
    if (clash(s)) {
      clashes.push(s.path);
      return s.value && (untranslate(s.value) as { map: Entry[] });
    }
    if (s.preludeNames.some((n) => !bound.has(n))) lines.push(...s.prelude, '');
    s.preludeNames.forEach((n, i) => bound.set(n, s.preludeTexts![i]!));
    s.imports.forEach((i) => imports.add(i));
    lambdas.push(...s.lambdas);
    return s.value;
  });
  return { lines, imports: [...imports], lambdas, values, clashes };
}

/** A file's prelude names `_x` as `_<prefix>_x`, in its prelude and its derivations. */
function prefixed(s: SourceValues, prefix: string): SourceValues {
  const re = new RegExp(`(?<![\\w.])_(${s.preludeNames.join('|')})(?!\\w)`, 'g');
  const ren = (x: string): string => x.replace(re, `_${prefix}_$1`);
  const walk = (v: Value): Value =>
    v instanceof Expr
      ? new Expr(ren(v.text), v.literal)
      : isMap(v)
        ? {
            map: v.map.map((e) => ({
              ...e,
              ...(e.keyExpr === undefined ? {} : { keyExpr: ren(e.keyExpr) }),
              value: walk(e.value),
            })),
          }
        : isList(v)
          ? { list: v.list.map((i) => ({ ...i, value: walk(i.value) })) }
          : v;
  return {
    ...s,
    prelude: s.prelude.map(ren),
    preludeNames: s.preludeNames.map((n) => `${prefix}_${n}`),
    preludeTexts: (s.preludeTexts ?? []).map(ren),
    value: s.value && (walk(s.value) as { map: Entry[] }),
  };
}

/** ` for a in _xs if c for b in _ys`: the comprehension clauses of a loop (consecutive `if`s joined by `and`). */
function clausesText(
  cs: readonly Clause[],
  sc: ReadonlyMap<string, string>,
  bound: ReadonlySet<string>,
): { text: string; bound: Set<string> } | undefined {
  const b = new Set(bound);
  let text = '';
  let conds: string[] = [];
  const flush = (): void => {
    if (conds.length > 0) text += ` if ${conds.length === 1 ? conds[0] : conds.map((c) => `(${c})`).join(' and ')}`;
    conds = [];
  };
  for (const c of cs) {
    if ('v' in c) {
      flush();
      const it = toKclExpr(c.iter, sc, b);
      if (it === undefined) return undefined;
      b.add(c.v);
      text += ` for ${c.v} in ${it}`;
    } else {
      const e = toKclExpr(c.cond, sc, b);
      if (e === undefined) return undefined;
      conds.push(e);
    }
  }
  flush();
  return { text, bound: b };
}

/** `item`, or `item2`, ...: a comprehension variable none of `taken` is. */
function fresh(taken: readonly string[]): string {
  const t = new Set(taken);
  let n = 'item';
  for (let i = 2; t.has(n); i++) n = `item${i}`;
  return n;
}

const clauseTexts = (cs: readonly Clause[]): string[] => cs.map((c) => ('v' in c ? c.iter : c.cond));

/** A loop and the loops nested in the items it yields, outermost first. */
function withNested(s: Extract<Stmt, { k: 'loop' }>): Extract<Stmt, { k: 'loop' }>[] {
  return [s, ...(s.nested ?? []).flatMap(withNested)];
}
