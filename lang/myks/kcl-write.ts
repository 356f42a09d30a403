/**
 * Printing converted data values as KCL config text: maps as `key: {...}`
 * unions (so they merge into what a level inherits), scalars and lists as
 * `key = value` overrides (KCL's meaning: a level's list replaces the one
 * above), chains of single-key maps as one dotted key, a few scalars on one
 * line, and the comments a value carried written above it.
 */
import { SFloat, YArray, YMap, type Comment, type NodeMeta, type YValue } from '../ytt/index.js';

/** A value with the comments written above it in its source. */
export interface Noted {
  comments: string[];
  blankBefore: boolean;
}
export interface Entry extends Noted {
  /** the key ytt resolved */
  key: string;
  value: Value;
  /** a translated templated key: the KCL string expression standing for `key` */
  keyExpr?: string;
}
export interface Item extends Noted {
  value: Value;
}
/** A translated derivation: KCL expression text standing where a literal would. */
export class Expr {
  constructor(
    readonly text: string,
    /** the value ytt resolved, should the derivation have to be dropped */
    readonly literal: Value,
  ) {}
}
export type Scalar = null | boolean | number | SFloat | string | Expr;
export type Value = Scalar | { map: Entry[] } | { list: Item[] };

// KCL's keywords and reserved words, and `true`/`false`: a YAML 1.1 boolean key (`n:`, `yes:`) is
// the string key ytt prints (`false:`), quoted so that it never reads as a boolean (docs/myks.md)
const KEYWORDS = new Set(
  [
    'True False None Undefined import as schema mixin protocol rule check assert if elif else for in is and or not',
    'lambda all any filter map type pass return validate flow def del raise except try finally while from with',
    'yield global nonlocal struct class final true false',
  ]
    .join(' ')
    .split(' '),
);

export function isIdent(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !KEYWORDS.has(s);
}

/** A KCL identifier for a name that may not be one (`per-chart-override` → `per_chart_override`). */
export function toIdent(s: string): string {
  let id = s.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(id)) id = `_${id}`;
  return KEYWORDS.has(id) ? `${id}_` : id;
}

/** `per-chart-override` → `PerChartOverride`, the schema name of a prototype. */
export function toSchemaName(s: string): string {
  const parts = s.split(/[^A-Za-z0-9]+/).filter((p) => p !== '');
  const name = parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `P${name}`;
}

/** `#!` means nothing outside a ytt template: only its `#` is kept. */
export function commentLines(cs: readonly Comment[]): string[] {
  return cs.map((c) => `#${c.text}`);
}

export function notedOf(meta: NodeMeta | undefined): Noted {
  return { comments: meta ? commentLines(meta.comments) : [], blankBefore: meta?.blankBefore === true };
}

/** ytt's resolved tree (comments kept on the items) → the converter's model. */
export function fromYtt(v: YValue): Value {
  if (v instanceof YMap)
    return { map: v.items.map((i) => ({ key: keyText(i.key), value: fromYtt(i.value), ...notedOf(i.meta) })) };
  if (v instanceof YArray) return { list: v.items.map((i) => ({ value: fromYtt(i.value), ...notedOf(i.meta) })) };
  return v;
}

/** Plain JSON data → the model (frozen literals carry no comments). */
export function fromPlain(v: unknown): Value {
  if (Array.isArray(v)) return { list: v.map((x) => ({ value: fromPlain(x), comments: [], blankBefore: false })) };
  if (v !== null && typeof v === 'object')
    return {
      map: Object.entries(v).map(([key, x]) => ({ key, value: fromPlain(x), comments: [], blankBefore: false })),
    };
  if (typeof v === 'number' && !Number.isInteger(v)) return new SFloat(v);
  return v as Scalar;
}

function keyText(k: unknown): string {
  if (k instanceof SFloat) return String(k.v);
  return String(k);
}

export function isMap(v: Value): v is { map: Entry[] } {
  return v !== null && typeof v === 'object' && 'map' in v;
}
export function isList(v: Value): v is { list: Item[] } {
  return v !== null && typeof v === 'object' && 'list' in v;
}

export function kclString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '$') out += '\\$';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

export function scalarText(v: Scalar): string {
  if (v === null) return 'None';
  if (v instanceof Expr) return v.text;
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v instanceof SFloat) {
    if (!Number.isFinite(v.v)) return v.v > 0 ? 'float("inf")' : v.v < 0 ? 'float("-inf")' : 'float("nan")';
    const s = String(v.v);
    return /[.eE]/.test(s) ? s : `${s}.0`;
  }
  if (typeof v === 'number') return String(v);
  return kclString(v);
}

/** An entry whose key is an identifier as written (not quoted, not a translated template). */
export function plainKey(e: Entry): boolean {
  return e.keyExpr === undefined && isIdent(e.key);
}

export function keyRef(k: string): string {
  return isIdent(k) ? k : kclString(k);
}

const isScalar = (v: Value): v is Scalar => !isMap(v) && !isList(v);

function inlineList(v: { list: Item[] }): string | undefined {
  if (!v.list.every((i) => isScalar(i.value) && i.comments.length === 0 && !i.blankBefore)) return undefined;
  const s = `[${v.list.map((i) => scalarText(i.value as Scalar)).join(', ')}]`;
  return s.length <= 80 ? s : undefined;
}

function inlineMap(v: { map: Entry[] }): string | undefined {
  if (v.map.length === 0) return '{}';
  if (v.map.length > 3) return undefined;
  if (!v.map.every((e) => isScalar(e.value) && e.comments.length === 0 && !e.blankBefore && plainKey(e)))
    return undefined;
  const s = `{${v.map.map((e) => `${e.key} = ${scalarText(e.value as Scalar)}`).join(', ')}}`;
  // a translated derivation keeps a line of its own unless the map stays short
  return v.map.some((e) => e.value instanceof Expr) && (s.length > 60 || s.includes('\n')) ? undefined : s;
}

const pad = (n: number): string => '    '.repeat(n);

function noteLines(n: Noted, depth: number, first: boolean, out: string[]): void {
  if (n.blankBefore && !first) out.push('');
  for (const c of n.comments) out.push(pad(depth) + c);
}

/** The entries of a config block, one indentation level at `depth`. */
export function entryLines(entries: readonly Entry[], depth: number, out: string[] = []): string[] {
  entries.forEach((e, idx) => {
    noteLines(e, depth, idx === 0, out);
    let key = e.keyExpr ?? keyRef(e.key);
    let value = e.value;
    // a chain of single-key maps is one dotted key
    while (
      plainKey(e) &&
      isMap(value) &&
      value.map.length === 1 &&
      value.map[0]!.comments.length === 0 &&
      plainKey(value.map[0]!)
    ) {
      const only: Entry = value.map[0]!;
      if (!isIdent(key.split('.').pop()!)) break;
      key = `${key}.${only.key}`;
      value = only.value;
    }
    out.push(...valueLines(key, value, depth));
  });
  return out;
}

function valueLines(key: string, value: Value, depth: number): string[] {
  if (isMap(value)) {
    const inline = inlineMap(value);
    if (inline !== undefined) return [`${pad(depth)}${key}: ${inline}`];
    return [`${pad(depth)}${key}: {`, ...entryLines(value.map, depth + 1), `${pad(depth)}}`];
  }
  return exprLines(`${pad(depth)}${key} = `, value, depth);
}

/** A value as an expression, its first line prefixed. */
export function exprLines(prefix: string, value: Value, depth: number): string[] {
  if (isMap(value)) {
    const inline = inlineMap(value);
    if (inline !== undefined) return [prefix + inline];
    return [`${prefix}{`, ...entryLines(value.map, depth + 1), `${pad(depth)}}`];
  }
  if (isList(value)) {
    const inline = inlineList(value);
    if (inline !== undefined) return [prefix + inline];
    const out = [`${prefix}[`];
    value.list.forEach((item, idx) => {
      noteLines(item, depth + 1, idx === 0, out);
      out.push(...exprLines(pad(depth + 1), item.value, depth + 1));
    });
    out.push(`${pad(depth)}]`);
    return out;
  }
  return [prefix + scalarText(value)];
}
