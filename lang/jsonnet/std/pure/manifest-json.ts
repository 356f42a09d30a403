/**
 * JSON text as go-jsonnet writes it, in its three flavours:
 * - `unparseString`/`serializeJson`: the interpreter's own printer, used by
 *   std.toString, std.escapeStringJson, `%s` and the final output (`[ ]` and
 *   `{ }` for empties, numbers via unparseNumber, \u00XX for C0/C1 controls);
 * - `manifestJsonEx`: go-jsonnet's native builtin, which encodes strings with
 *   Go's encoding/json (HTML escaping off; U+2028/U+2029 escaped; DEL and C1
 *   kept) and numbers with FormatFloat('f', -1), so it differs from the C++
 *   std.jsonnet version (which prints 0.10000000000000001): go-jsonnet wins.
 * Invariant: object keys are always printed in code point order.
 */
import type { JsonValue } from '../../../common/json.js';
import { compareCodepoints } from '../../../common/json.js';
import { sortNames } from '../../sort-names.js';
import { formatFloat } from '../../../go/strconv.js';
import { wantString } from './values.js';

const HEX = '0123456789abcdef';

function u4(c: number): string {
  return '\\u' + HEX[(c >> 12) & 15] + HEX[(c >> 8) & 15] + HEX[(c >> 4) & 15] + HEX[c & 15];
}

function isLoneSurrogate(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    return !(d >= 0xdc00 && d <= 0xdfff);
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const p = i > 0 ? s.charCodeAt(i - 1) : 0;
    return !(p >= 0xd800 && p <= 0xdbff);
  }
  return false;
}

/** Go encoding/json string encoding with SetEscapeHTML(false) (Go >= 1.22: \b and \f short forms). */
function goJsonString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c === 0x22) rep = '\\"';
    else if (c === 0x5c) rep = '\\\\';
    else if (c < 0x20) {
      if (c === 8) rep = '\\b';
      else if (c === 12) rep = '\\f';
      else if (c === 10) rep = '\\n';
      else if (c === 13) rep = '\\r';
      else if (c === 9) rep = '\\t';
      else rep = u4(c);
    } else if (c === 0x2028 || c === 0x2029) rep = u4(c);
    else if (c >= 0xd800 && c <= 0xdfff && isLoneSurrogate(s, i)) rep = '\\ufffd';
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/**
 * go-jsonnet's serializeJSON and unparseString: one implementation, the
 * engine's (lang/jsonnet/manifest.ts), serves the CLI output, std.toString
 * and these functions.
 */
export { serializeJson, quoteString as unparseString } from '../../manifest.js';
import { serializeJson } from '../../manifest.js';

/** std.toString: strings as they are, anything else as one-line JSON. */
export function toStringValue(v: JsonValue): string {
  return typeof v === 'string' ? v : serializeJson(v, false);
}

/** std.manifestJsonEx(value, indent, newline, key_val_sep), go-jsonnet's native version. */
export function manifestJsonEx(value: JsonValue, indentV: JsonValue, newlineV: JsonValue, kvSepV: JsonValue): string {
  const indent = wantString(indentV);
  const newline = wantString(newlineV);
  const kvSep = wantString(kvSepV);
  // One growing string rather than per-level arrays joined: Grafana dashboards
  // (kube-prometheus manifests ~40 of them, 5 MB) made the joins a visible
  // share of allocation. V8 keeps `+=` as a rope and flattens it once.
  let out = '';
  const aux = (v: JsonValue, cindent: string): void => {
    if (v === null) out += 'null';
    else if (typeof v === 'boolean') out += v ? 'true' : 'false';
    else if (typeof v === 'number') out += formatFloat(v, 'f', -1);
    else if (typeof v === 'string') out += goJsonString(v);
    else {
      const inner = cindent + indent;
      const array = Array.isArray(v);
      out += array ? '[' : '{';
      out += newline;
      if (array) {
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',' + newline;
          out += inner;
          aux(v[i]!, inner);
        }
      } else {
        // Usually sorted already (arguments are manifested in key order): see sort-names.ts.
        const keys = sortNames(Object.keys(v), compareCodepoints);
        for (let i = 0; i < keys.length; i++) {
          if (i > 0) out += ',' + newline;
          out += inner + goJsonString(keys[i]!) + kvSep;
          aux(v[keys[i]!]!, inner);
        }
      }
      out += newline + cindent + (array ? ']' : '}');
    }
  };
  aux(value, '');
  return out;
}

export function manifestJson(value: JsonValue): string {
  return manifestJsonEx(value, '    ', '\n', ': ');
}

export function manifestJsonMinified(value: JsonValue): string {
  return manifestJsonEx(value, '', '', ':');
}
