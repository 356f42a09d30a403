/**
 * kubecfg's JSON output: lang/go/encoding-json's MarshalIndent with HTML
 * escaping on, memoised per object, non-finite numbers reported with their
 * path (encoding/json refuses them too: "json: unsupported value").
 */

import type { JsonValue } from '../../lang/common/json.js';
import { marshal } from '../../lang/go/encoding-json.js';
import { guardDepth, RenderError } from '../errors.js';
import { TextMemo } from './text-memo.js';

function unsupportedValue(n: number, path: string): never {
  throw new RenderError(
    'RENDER_UNSUPPORTED_VALUE',
    `json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'} (at ${path})`,
    path,
  );
}

/**
 * json.MarshalIndent(value, "", indent) with HTML escaping on, as used by
 * kubecfg's json.Encoder (SetIndent) and its manifestJson native; indent
 * null gives the compact form of json.Marshal.
 */
export function goMarshalIndent(value: JsonValue, indent: string | null): string {
  return marshal(value, { indent: indent ?? undefined, escapeHtml: true, unsupported: unsupportedValue });
}

const indentedJson = (obj: JsonValue): string => guardDepth(() => goMarshalIndent(obj, '  '));

/** Objects printed before, by content (text-memo.ts), as for the YAML output. */
const jsonDocuments = new TextMemo(8 * 1024 * 1024);

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
