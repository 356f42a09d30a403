/**
 * `kubecfg eval` output. `-o json` prints go-jsonnet's own manifestation
 * (3-space indent, `{ }`/`[ ]` for empty collections, numbers as
 * unparseNumber, strings as unparseString) which already ends with a
 * newline, through fmt.Println, so the output ends with an empty line;
 * `-o yaml` prints yaml.Marshal's document through fmt.Println likewise.
 * Invariant: the returned string is exactly what kubecfg writes to stdout.
 */

import type { JsonValue } from '../../lang/common/json.js';
import { isJsonObject, sortedKeys } from '../../lang/common/json.js';
import { formatJsonnetNumber } from '../go/float-format.js';
import { marshalKubecfgYaml } from './yaml.js';
import { guardDepth, RenderError } from '../errors.js';

/** go-jsonnet's unparseString (lone surrogates become U+FFFD, as Go writes an invalid rune). */
export function jsonnetString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
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
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return out + '"';
}

/** go-jsonnet's serializeJSON in multiline mode (what `jsonnet` prints, minus the final newline). */
export function jsonnetManifest(value: JsonValue): string {
  const parts: string[] = [];
  const walk = (v: JsonValue, indent: string): void => {
    if (v === null) parts.push('null');
    else if (typeof v === 'boolean') parts.push(v ? 'true' : 'false');
    else if (typeof v === 'number') {
      if (!Number.isFinite(v))
        throw new RenderError('RENDER_UNSUPPORTED_VALUE', `cannot manifest the number ${v} as JSON`);
      parts.push(formatJsonnetNumber(v));
    } else if (typeof v === 'string') parts.push(jsonnetString(v));
    else if (Array.isArray(v)) {
      if (v.length === 0) {
        parts.push('[ ]');
        return;
      }
      const inner = indent + '   ';
      v.forEach((item, i) => {
        parts.push(i === 0 ? '[\n' : ',\n', inner);
        walk(item, inner);
      });
      parts.push('\n', indent, ']');
    } else if (isJsonObject(v)) {
      const keys = sortedKeys(v);
      if (keys.length === 0) {
        parts.push('{ }');
        return;
      }
      const inner = indent + '   ';
      keys.forEach((k, i) => {
        parts.push(i === 0 ? '{\n' : ',\n', inner, jsonnetString(k), ': ');
        walk(v[k]!, inner);
      });
      parts.push('\n', indent, '}');
    }
  };
  walk(value, '');
  return parts.join('');
}

/** `kubecfg eval -o json|yaml`: the exact bytes kubecfg writes to stdout. */
export function formatEval(value: JsonValue, format: 'json' | 'yaml'): string {
  if (format === 'json') return guardDepth(() => jsonnetManifest(value)) + '\n\n';
  return marshalKubecfgYaml(value) + '\n';
}
