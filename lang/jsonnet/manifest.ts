/**
 * JSON text exactly as go-jsonnet's `jsonnet` command prints it: 3-space
 * indentation, `[ ]` / `{ }` for empty containers, keys sorted by code point,
 * integers with `%.0f` (no exponent), other numbers with `%.17g`, strings
 * escaped as go-jsonnet's unparseString (control chars and U+007F..U+009F as
 * \u00XX). Pure functions over JsonValue.
 */
import type { JsonValue } from '../common/json.js';

/** Go's fmt `%.0f` for integral doubles, `%.17g` otherwise. */
export function formatNumberJson(v: number): string {
  if (Number.isInteger(v)) {
    if (Object.is(v, -0)) return '-0';
    if (Math.abs(v) < 1e21) return v.toFixed(0);
    return BigInt(v).toString();
  }
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  return formatG17(v);
}

/** Go's `%.17g` (trailing zeros removed, exponent at least two digits). */
export function formatG17(v: number): string {
  const exp = v.toExponential(16); // d.dddddddddddddddde±x
  const m = /^(-?)(\d)\.(\d+)e([+-]\d+)$/.exec(exp)!;
  const x = parseInt(m[4]!, 10);
  if (x < -4 || x >= 17) {
    let mant = `${m[2]}.${m[3]}`.replace(/0+$/, '').replace(/\.$/, '');
    mant = m[1] + mant;
    const ax = Math.abs(x);
    return `${mant}e${x < 0 ? '-' : '+'}${ax < 10 ? '0' + ax : ax}`;
  }
  const fixed = v.toFixed(Math.max(0, 16 - x));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** go-jsonnet's unparseString. */
export function quoteString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      switch (c) {
        case 8: rep = '\\b'; break;
        case 12: rep = '\\f'; break;
        case 10: rep = '\\n'; break;
        case 13: rep = '\\r'; break;
        case 9: rep = '\\t'; break;
        default: rep = '\\u' + c.toString(16).padStart(4, '0');
      }
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate cannot be encoded in UTF-8; Go writes U+FFFD.
      const hi = c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (hi) {
        i++;
        continue;
      }
      rep = '\ufffd';
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

function sortedKeysOf(o: { [k: string]: JsonValue }): string[] {
  return Object.keys(o).sort(cmpCodepoints);
}

function cmpCodepoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/** go-jsonnet's serializeJSON; `multiline` false gives `{"a": 1, "b": [1, 2]}`. */
export function serializeJson(v: JsonValue, multiline = true, indent = ''): string {
  const parts: string[] = [];
  write(v, multiline, indent, parts);
  return parts.join('');
}

export function serializeCompact(v: JsonValue): string {
  return serializeJson(v, false, '');
}

function write(v: JsonValue, multiline: boolean, indent: string, out: string[]): void {
  if (v === null) {
    out.push('null');
    return;
  }
  switch (typeof v) {
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'number':
      out.push(formatNumberJson(v));
      return;
    case 'string':
      out.push(quoteString(v));
      return;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) {
      out.push('[ ]');
      return;
    }
    const indent2 = multiline ? indent + '   ' : indent;
    let prefix = multiline ? '[\n' : '[';
    for (const el of v) {
      out.push(prefix, indent2);
      write(el, multiline, indent2, out);
      prefix = multiline ? ',\n' : ', ';
    }
    if (multiline) out.push('\n');
    out.push(indent, ']');
    return;
  }
  const keys = sortedKeysOf(v);
  if (keys.length === 0) {
    out.push('{ }');
    return;
  }
  const indent2 = multiline ? indent + '   ' : indent;
  let prefix = multiline ? '{\n' : '{';
  for (const k of keys) {
    out.push(prefix, indent2, quoteString(k), ': ');
    write(v[k]!, multiline, indent2, out);
    prefix = multiline ? ',\n' : ', ';
  }
  if (multiline) out.push('\n');
  out.push(indent, '}');
}
