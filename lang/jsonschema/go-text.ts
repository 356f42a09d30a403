/**
 * Go text helpers with the exact output of santhosh-tekuri/jsonschema v5's
 * messages: its single-quoted `quote`, its JSON-pointer token `escape`
 * (with url.PathEscape), Go's `%v` of a float64 and `%#v` of a schema value
 * as encoding/json (UseNumber) would have decoded it.
 */

import type { JsonValue } from '../common/json.js';
// Go's strconv/fmt/encoding-json text lives in the template engine; lang/common
// has no Go formatting of its own, and the engine never imports this folder.
import { formatFloat, quote as goQuote } from '../go/strconv.js';
import { formatNumber as formatJsonNumber } from '../go/encoding-json.js';

/** The library's quote(): Go's %q, then `\"` unescaped and `'` escaped, in single quotes. */
export function quoteSingle(s: string): string {
  const q = goQuote(s).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return "'" + q.slice(1, -1) + "'";
}

const PATH_SEGMENT_KEEP = /[A-Za-z0-9\-_.~$&+:=@]/;

/** url.PathEscape: percent-encodes the UTF-8 bytes of all but unreserved and a few sub-delims. */
export function goPathEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    if (PATH_SEGMENT_KEEP.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of new TextEncoder().encode(ch)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** The library's escape(): a JSON-pointer token, then url.PathEscape. */
export function pointerToken(token: string): string {
  return goPathEscape(token.replaceAll('~', '~0').replaceAll('/', '~1'));
}

/** fmt's %v of a float64. */
export function goFloat(x: number): string {
  return formatFloat(x, 'g', -1);
}

/**
 * fmt's %#v of a primitive schema value. kubecfg marshals the schema to JSON
 * and the library decodes it with UseNumber, so numbers are json.Number
 * strings and print quoted.
 */
export function goSharpV(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goQuote(formatJsonNumber(v));
  if (typeof v === 'string') return goQuote(v);
  return Array.isArray(v) ? '[]interface {}{...}' : 'map[string]interface {}{...}';
}
