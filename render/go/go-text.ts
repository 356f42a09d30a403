/**
 * Go's textual forms of values that kubecfg's messages embed: strconv.Quote
 * (`%q`), the `%T` type names of values decoded by encoding/json into
 * interface{}, and their `%v` forms. Invariants: JSON values only; lone
 * surrogates print as U+FFFD, as they would after Go's JSON decoder.
 */

import type { JsonValue } from '../../lang/common/json.js';
import { isJsonObject, sortedKeys } from '../../lang/common/json.js';
import { formatFloatShortest } from './float-format.js';

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's unicode.IsPrint (letters, marks, numbers, punctuation, symbols and U+0020). */
function isGoPrintable(ch: string): boolean {
  return ch === ' ' || PRINTABLE.test(ch);
}

/** strconv.Quote(s). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
    switch (c) {
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
    }
    const text = String.fromCodePoint(c);
    if (isGoPrintable(text)) out += text;
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (c < 0x10000) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += '\\U' + c.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/** `%T` of a JSON value decoded into interface{}. */
export function goTypeName(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** `%v` of a JSON value decoded into interface{}. */
export function goValueString(v: JsonValue): string {
  if (v === null) return '<nil>';
  if (typeof v === 'number') return formatFloatShortest(v, 'g');
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goValueString).join(' ') + ']';
  if (isJsonObject(v))
    return (
      'map[' +
      sortedKeys(v)
        .map((k) => `${k}:${goValueString(v[k]!)}`)
        .join(' ') +
      ']'
    );
  return String(v);
}
