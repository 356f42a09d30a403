/**
 * JSON text exactly as go-jsonnet's `jsonnet` command prints it: 3-space
 * indentation, `[ ]` / `{ }` for empty containers, keys sorted by code point,
 * integers with `%.0f` (no exponent), other numbers with `%.17g`, strings
 * escaped as go-jsonnet's unparseString (control chars and U+007F..U+009F as
 * \u00XX). Pure functions over JsonValue.
 */
import { sortedKeys, type JsonValue } from '../common/json.js';
import { unparseNumber } from './std/pure/go-number.js';

/**
 * Go's fmt `%.0f` for integral doubles, `%.17g` otherwise (go-jsonnet's
 * unparseNumber). The exact decimal expansion with round-half-even lives in
 * std/pure/go-number.ts; JS toFixed/toPrecision round ties away from zero.
 */
export function formatNumberJson(v: number): string {
  if (Number.isSafeInteger(v)) return Object.is(v, -0) ? '-0' : String(v);
  return unparseNumber(v);
}

/**
 * The characters quoteString rewrites. Most strings (field names, labels) have
 * none; testing with a native regular expression first skips the per-character
 * loop (kube-prometheus: quoteString was 4.3% of a 7.3 MB render).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]/;

/** NEEDS_ESCAPE, searching: the loop below jumps from one such character to the next. */
const ESCAPES = /["\\\u0000-\u001f\u007f-\u009f\ud800-\udfff]/g;

/**
 * go-jsonnet's unparseString. The characters to rewrite are found with a native search
 * rather than a test of every character: kube-prometheus's CRD descriptions are megabytes of
 * text with a newline every line or so, walked one character at a time by interpreted code.
 */
export function quoteString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let start = 0;
  ESCAPES.lastIndex = 0;
  while (ESCAPES.test(s)) {
    const i = ESCAPES.lastIndex - 1;
    const c = s.charCodeAt(i);
    let rep: string;
    if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      switch (c) {
        case 8:
          rep = '\\b';
          break;
        case 12:
          rep = '\\f';
          break;
        case 10:
          rep = '\\n';
          break;
        case 13:
          rep = '\\r';
          break;
        case 9:
          rep = '\\t';
          break;
        default:
          rep = '\\u' + c.toString(16).padStart(4, '0');
      }
    } else {
      // A surrogate: a pair is written as it is; a lone one cannot be encoded in UTF-8, Go writes U+FFFD.
      if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        ESCAPES.lastIndex = i + 2;
        continue;
      }
      rep = '\ufffd';
    }
    out += s.slice(start, i) + rep;
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

/** go-jsonnet's serializeJSON; `multiline` false gives `{"a": 1, "b": [1, 2]}`. */
export function serializeJson(v: JsonValue, multiline = true, indent = ''): string {
  // String concatenation (V8 ropes) allocates far less than collecting parts.
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return formatNumberJson(v);
    case 'string':
      return quoteString(v);
  }
  const indent2 = multiline ? indent + '   ' : indent;
  const sep = multiline ? ',\n' : ', ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[ ]';
    let out = multiline ? '[\n' : '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += sep;
      out += indent2 + serializeJson(v[i]!, multiline, indent2);
    }
    return out + (multiline ? '\n' : '') + indent + ']';
  }
  const keys = sortedKeys(v);
  if (keys.length === 0) return '{ }';
  let out = multiline ? '{\n' : '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (i > 0) out += sep;
    out += indent2 + quoteString(k) + ': ' + serializeJson(v[k]!, multiline, indent2);
  }
  return out + (multiline ? '\n' : '') + indent + '}';
}

export function serializeCompact(v: JsonValue): string {
  return serializeJson(v, false, '');
}
