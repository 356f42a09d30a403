/**
 * JSON text exactly as Go's encoding/json writes a map[string]interface{}:
 * keys sorted by code point, `<`, `>` and `&` escaped as \u003c etc. unless
 * escapeHtml is off, U+2028/U+2029 always escaped, and json.MarshalIndent's
 * layout (empty objects/arrays stay `{}` / `[]`). kubecfg's diff output and
 * last-applied annotation depend on this byte for byte.
 */
import { compareCodepoints, isJsonObject, type JsonValue } from '../lang/common/json.js';

export interface GoJsonOptions {
  /** Indent unit for MarshalIndent; undefined for compact output. */
  readonly indent?: string;
  readonly escapeHtml: boolean;
}

export function goJson(value: JsonValue, options: GoJsonOptions): string {
  return write(value, options, '');
}

function write(value: JsonValue, options: GoJsonOptions, prefix: string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'string') return goString(value, options.escapeHtml);
  const inner = options.indent === undefined ? undefined : prefix + options.indent;
  const sep = inner === undefined ? ',' : ',\n' + inner;
  const open = (c: string): string => (inner === undefined ? c : c + '\n' + inner);
  const close = (c: string): string => (inner === undefined ? c : '\n' + prefix + c);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return open('[') + value.map((v) => write(v, options, inner ?? '')).join(sep) + close(']');
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort(compareCodepoints);
    if (keys.length === 0) return '{}';
    const colon = inner === undefined ? ':' : ': ';
    return (
      open('{') +
      keys.map((k) => goString(k, options.escapeHtml) + colon + write(value[k]!, options, inner ?? '')).join(sep) +
      close('}')
    );
  }
  return 'null';
}

/** Go's float64 formatting: integers plainly, 'e' notation below 1e-6 and from 1e21, exponent without leading zeros. */
function goNumber(n: number): string {
  if (!Number.isFinite(n)) return 'null';
  if (Object.is(n, -0)) return '-0';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    // JS already writes Go's cleaned-up form: 1e-7, 1e+21.
    return n.toExponential();
  }
  return String(n);
}

function goString(s: string, escapeHtml: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x2028 || c === 0x2029 || (escapeHtml && (ch === '<' || ch === '>' || ch === '&'))) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A lone surrogate is invalid UTF-8 in Go, which writes U+FFFD instead.
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += ch + s[i + 1]!;
        i++;
      } else {
        out += '\ufffd';
      }
    } else {
      out += ch;
    }
  }
  return out + '"';
}
