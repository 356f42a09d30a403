/**
 * Translated ytt computation, the small safe part: in a file that resolves on
 * its own, top-level prelude assignments (`#@ port = 8080`) become
 * module-level `_port` variables and `key: #@ expr` values become the same
 * expression in KCL, where the expression uses only literals, operators,
 * comprehensions, the prelude's names and a few builtins shared by Starlark
 * and KCL. Nothing is taken on trust: the prelude and one variable per derived
 * value are evaluated by lang/kcl and compared with what ytt resolved; a
 * derivation that does not reproduce it (or a file that does not evaluate)
 * stays the literal. Loops, definitions, `load()`, `%` formatting and keyword
 * arguments are not translated.
 */
import { evaluateKcl, memoryHost, toPlain as kclPlain } from '../kcl/index.js';
import type { TemplateFile } from '../ytt/index.js';
import { Expr, isList, isMap, type Entry, type Value } from './kcl-write.js';
import type { SourceValues } from './sources.js';
import { nodePath } from './node-path.js';

const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'if', 'else', 'for', 'True', 'False', 'None']);
const BUILTINS = new Set([
  'len',
  'str',
  'int',
  'float',
  'bool',
  'sorted',
  'min',
  'max',
  'abs',
  'range',
  'list',
  'dict',
]);

/** Starlark expression text → KCL text with prelude names prefixed, or undefined when outside the shared subset. */
export function toKclExpr(src: string, prelude: ReadonlySet<string>): string | undefined {
  let out = '';
  let i = 0;
  const bound = new Set<string>();
  // names bound by comprehensions (`for x in`) are the expression's own
  for (const m of src.matchAll(/\bfor\s+([A-Za-z_]\w*)(?:\s*,\s*([A-Za-z_]\w*))?\s+in\b/g)) {
    bound.add(m[1]!);
    if (m[2]) bound.add(m[2]);
  }
  while (i < src.length) {
    const c = src[i]!;
    if (c === '"' || c === "'") {
      if (src.startsWith(c.repeat(3), i)) return undefined;
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return undefined;
      const body = src.slice(i + 1, j);
      if (body.includes('${') || body.includes('$')) return undefined;
      out += `"${c === "'" ? body.replace(/"/g, '\\"') : body}"`;
      i = j + 1;
      continue;
    }
    if (c === '%' || c === '#' || (c === '=' && src[i + 1] !== '=' && !'!<>='.includes(src[i - 1] ?? '')))
      return undefined;
    const m = /^[A-Za-z_]\w*/.exec(src.slice(i));
    if (m) {
      const id = m[0];
      const afterDot = out.endsWith('.');
      if (afterDot || KEYWORDS.has(id) || BUILTINS.has(id) || bound.has(id)) out += id;
      else if (prelude.has(id)) out += `_${id}`;
      else return undefined;
      i += id.length;
      continue;
    }
    out += c;
    i++;
  }
  return out.trim();
}

const canon = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canon).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : (JSON.stringify(v) ?? 'undefined');

function plainOf(v: Value): unknown {
  if (isMap(v)) return Object.fromEntries(v.map.map((e) => [e.key, plainOf(e.value)]));
  if (isList(v)) return v.list.map((i) => plainOf(i.value));
  if (v !== null && typeof v === 'object' && 'v' in v) return v.v;
  return v;
}

/** Replaces each proved derivation of `out.value` by its KCL expression; sets the prelude it reads. */
export function translate(t: TemplateFile, out: SourceValues, codeLines: readonly { text: string }[]): void {
  const lines = codeLines.map((l) => l.text.trim()).filter((l) => l !== '');
  const assigns: [string, string][] = [];
  for (const l of lines) {
    if (/^load\(/.test(l)) continue;
    const m = /^([A-Za-z_]\w*)\s*=\s*(.+)$/.exec(l);
    if (!m || /^(for|if|def|while|end)\b/.test(l)) return;
    assigns.push([m[1]!, m[2]!]);
  }
  if (t.loads.length > 0) return;
  if (new Set(assigns.map(([n]) => n)).size !== assigns.length) return;
  // a name translates when its expression does, reading only names that translate
  const names = new Set(assigns.map(([n]) => n));
  for (let changed = true; changed;) {
    changed = false;
    for (const [n, e] of assigns)
      if (names.has(n) && toKclExpr(e, names) === undefined) {
        names.delete(n);
        changed = true;
      }
  }
  const kept = assigns.filter(([n]) => names.has(n));
  const prelude = kept.map(([n, e]) => `_${n} = ${toKclExpr(e, names)!}`);
  // candidate derivations: `key: #@ expr` reached through maps only
  const cands: { path: string[]; expr: string }[] = [];
  for (const n of t.nodes) {
    if (!n.code) continue;
    const p = nodePath(t, n);
    if (p.includes('[')) continue;
    const k = toKclExpr(n.code.text.replace(/^#@\s*/, ''), names);
    if (k !== undefined) cands.push({ path: p.split('.'), expr: k });
  }
  if (cands.length === 0) return;
  const find = (path: string[]): { holder: { value: Value } } | undefined => {
    let cur: Value = out.value!;
    let holder: { value: Value } | undefined;
    for (const seg of path) {
      if (!isMap(cur)) return undefined;
      const e: Entry | undefined = cur.map.find((x) => x.key === seg);
      if (!e) return undefined;
      holder = e;
      cur = e.value;
    }
    return holder && { holder };
  };
  let results: Record<string, unknown>;
  try {
    const src = [...prelude, ...cands.map((c, i) => `v${i} = ${c.expr}`)].join('\n') + '\n';
    results = kclPlain(evaluateKcl(memoryHost({ '/t/main.k': src }), { paths: ['/t/main.k'] }).value) as Record<
      string,
      unknown
    >;
  } catch {
    return;
  }
  const used = new Set<string>();
  let exprs = 0;
  cands.forEach((c, i) => {
    const at = find(c.path);
    // a map stays literal: written as a union it merges as ytt's overlay did
    if (!at || isMap(at.holder.value)) return;
    if (canon(results[`v${i}`]) !== canon(plainOf(at.holder.value))) return;
    exprs++;
    at.holder.value = new Expr(c.expr, at.holder.value);
    for (const m of c.expr.matchAll(/\b_([A-Za-z_]\w*)/g)) used.add(m[1]!);
  });
  // pruned to the variables a derivation reads (and those they read)
  for (let grew = true; grew;) {
    grew = false;
    for (const [n, e] of kept)
      if (used.has(n))
        for (const m of (toKclExpr(e, names) ?? '').matchAll(/\b_([A-Za-z_]\w*)/g))
          if (!used.has(m[1]!)) {
            used.add(m[1]!);
            grew = true;
          }
  }
  out.prelude = prelude.filter((_, i) => used.has(kept[i]![0]));
  out.preludeNames = kept.map(([n]) => n).filter((n) => used.has(n));
  out.untranslated = t.nodes.filter((n) => n.code).length - exprs;
}

/** The literals ytt resolved, back in place of the derivations (a level whose files bind one name twice). */
export function untranslate(v: Value): Value {
  if (v instanceof Expr) return v.literal;
  if (isMap(v)) return { map: v.map.map((e) => ({ ...e, value: untranslate(e.value) })) };
  if (isList(v)) return { list: v.list.map((i) => ({ ...i, value: untranslate(i.value) })) };
  return v;
}
