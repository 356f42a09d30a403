/**
 * kubecfg's JSON output: lang/go/encoding-json's MarshalIndent with HTML
 * escaping on, memoised per object, non-finite numbers reported with their
 * path (encoding/json refuses them too: "json: unsupported value").
 */

import type { JsonValue } from '../../lang/common/json.js';
import { marshal } from '../../lang/go/encoding-json.js';
import { guardDepth, RenderError } from '../errors.js';
import { TextMemo } from './text-memo.js';
import { nativeGoJson } from './native-json.js';

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
  return (
    nativeGoJson(value, indent) ??
    marshal(value, { indent: indent ?? undefined, escapeHtml: true, unsupported: unsupportedValue })
  );
}

const indentedJson = (obj: JsonValue): string =>
  guardDepth(() => marshal(obj, { indent: '  ', escapeHtml: true, unsupported: unsupportedValue }));

/**
 * Objects printed before, by content (text-memo.ts), for the objects V8's JSON.stringify cannot
 * print as Go does (native-json.ts): for the others, formatting natively costs less than the
 * memo's key alone, and keeps no text alive between renders.
 */
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
    out += (nativeGoJson(obj, '  ') ?? jsonDocuments.text(obj, indentedJson)) + '\n';
  });
  return out;
}
