/**
 * encoding/json's Marshal and MarshalIndent of the values interface{} holds
 * after Unmarshal (null, bool, float64, string, []interface{},
 * map[string]interface{}): map keys sorted by code point, HTML escaping
 * optional (json.Marshal escapes, an Encoder with SetEscapeHTML(false) does
 * not), U+2028/U+2029 always escaped, MarshalIndent's layout (empty objects
 * and arrays stay `{}` and `[]`).
 */
import type { JsonValue } from '../../common/json.js';
import { isJsonObject, sortedKeys } from '../../common/json.js';
import { formatFloat } from '../strconv/ftoa.js';

/** encoding/json's string encoding (Go 1.22+: \\b and \\f short forms; invalid UTF-8 as \\ufffd). */
export function quoteString(s: string, escapeHtml: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += '\\ufffd';
      continue;
    }
    switch (c) {
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
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
    }
    if (c < 0x20 || c === 0x2028 || c === 0x2029 || (escapeHtml && (c === 0x3c || c === 0x3e || c === 0x26))) {
      out += '\\u' + (c < 0x1000 ? '0' : '') + (c < 0x100 ? '0' : '') + (c < 0x10 ? '0' : '') + c.toString(16);
      continue;
    }
    out += s[i];
  }
  return out + '"';
}

/** encoding/json's float64 text: 'f', or 'e' below 1e-6 and from 1e21, with e-07 shortened to e-7. */
export function formatNumber(x: number): string {
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) return formatFloat(x, 'e', -1).replace(/e([-+])0(\d)$/, 'e$1$2');
  return formatFloat(x, 'f', -1);
}

export interface MarshalOptions {
  /** MarshalIndent's indent unit; undefined for Marshal's compact form (an empty indent still breaks lines). */
  readonly indent?: string;
  readonly escapeHtml: boolean;
  /** Called for NaN and ±Inf with the value's path ($.a[0]); Go fails the whole Marshal. */
  readonly unsupported?: (n: number, path: string) => never;
}

function unsupportedValue(n: number): never {
  throw new Error(`json: unsupported value: ${formatFloat(n, 'g', -1)}`);
}

export function marshal(value: JsonValue, options: MarshalOptions): string {
  const { indent, escapeHtml } = options;
  const unsupported = options.unsupported ?? unsupportedValue;
  const parts: string[] = [];
  const nl = (depth: number): string => (indent === undefined ? '' : '\n' + indent.repeat(depth));
  const walk = (v: JsonValue, depth: number, path: string): void => {
    if (v === null) parts.push('null');
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false');
    else if (typeof v === 'number') parts.push(Number.isFinite(v) ? formatNumber(v) : unsupported(v, path));
    else if (typeof v === 'string') parts.push(quoteString(v, escapeHtml));
    else if (Array.isArray(v)) {
      if (v.length === 0) {
        parts.push('[]');
        return;
      }
      parts.push('[');
      v.forEach((item, i) => {
        if (i > 0) parts.push(',');
        parts.push(nl(depth + 1));
        walk(item, depth + 1, `${path}[${i}]`);
      });
      parts.push(nl(depth), ']');
    } else if (isJsonObject(v)) {
      const keys = sortedKeys(v);
      if (keys.length === 0) {
        parts.push('{}');
        return;
      }
      parts.push('{');
      keys.forEach((k, i) => {
        if (i > 0) parts.push(',');
        parts.push(nl(depth + 1), quoteString(k, escapeHtml), indent === undefined ? ':' : ': ');
        walk(v[k]!, depth + 1, `${path}.${k}`);
      });
      parts.push(nl(depth), '}');
    }
  };
  walk(value, 0, '$');
  return parts.join('');
}
