/**
 * JSON as Go's encoding/json writes it: MarshalIndent-style layout (`{}` and
 * `[]` for empty collections, "key": value with one space), map keys sorted
 * by byte order (= code point order), numbers with the float64 rule of
 * encoding/json, strings escaped with HTML-safe escapes (`<` `>` `&` as
 * \u003c...), U+2028/U+2029 escaped, \b \f \n \r \t short escapes (Go 1.22+),
 * other control characters as \u00XX, invalid UTF-16 as \ufffd.
 * Invariant: never throws for JSON values except non-finite numbers, which
 * encoding/json refuses too ("json: unsupported value").
 */

import type { JsonValue } from '../../lang/common/json.js';
import { isJsonObject, sortedKeys } from '../../lang/common/json.js';
import { formatJsonNumber } from '../go/float-format.js';
import { guardDepth, RenderError } from '../errors.js';
import { TextMemo, type TextMemoStats } from './text-memo.js';

/** encoding/json's string encoding. */
export function goJsonString(s: string, escapeHtml: boolean): string {
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

function goJsonNumber(n: number, path: string): string {
  if (!Number.isFinite(n)) {
    throw new RenderError(
      'RENDER_UNSUPPORTED_VALUE',
      `json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'} (at ${path})`,
      path,
    );
  }
  return formatJsonNumber(n);
}

/**
 * json.MarshalIndent(value, "", indent) with HTML escaping on, as used by
 * kubecfg's json.Encoder (SetIndent) and its manifestJson native; indent
 * null gives the compact form of json.Marshal (an empty indent still breaks
 * lines, as in Go).
 */
export function goMarshalIndent(value: JsonValue, indent: string | null): string {
  const parts: string[] = [];
  const nl = (depth: number): string => (indent === null ? '' : '\n' + indent.repeat(depth));
  const walk = (v: JsonValue, depth: number, path: string): void => {
    if (v === null) parts.push('null');
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false');
    else if (typeof v === 'number') parts.push(goJsonNumber(v, path));
    else if (typeof v === 'string') parts.push(goJsonString(v, true));
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
        parts.push(nl(depth + 1), goJsonString(k, true), indent === null ? ':' : ': ');
        walk(v[k]!, depth + 1, `${path}.${k}`);
      });
      parts.push(nl(depth), '}');
    }
  };
  walk(value, 0, '$');
  return parts.join('');
}

const indentedJson = (obj: JsonValue): string => guardDepth(() => goMarshalIndent(obj, '  '));

/** Objects printed before, by content (text-memo.ts), as for the YAML output. */
const jsonDocuments = new TextMemo(8 * 1024 * 1024);

export function jsonMemoStats(): TextMemoStats {
  return jsonDocuments.stats();
}

/**
 * `kubecfg show -o json`: each object through a json.Encoder with a
 * two-space indent (so each ends with a newline), and `---` lines between
 * objects (kubecfg's own framing, not valid JSON for more than one object).
 */
export function formatJsonObjects(objects: JsonValue[]): string {
  let out = '';
  objects.forEach((obj, i) => {
    if (i > 0) out += '---\n';
    out += jsonDocuments.text(obj, indentedJson) + '\n';
  });
  return out;
}
