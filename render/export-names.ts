/**
 * File names of `kubecfg show --export-dir` (pkg/kubecfg/show.go), minus the
 * Go template execution itself, which the caller does with the Go template
 * engine (sprig functions plus `resourceIndex`):
 *  1. exportTemplateText: `/` in the literal text of the format (outside
 *     {{...}}) becomes BEL, so it can later make subdirectories;
 *  2. exportTemplateData: the object plus `___idx___` (its index in the
 *     stream), which `resourceIndex .` reads;
 *  3. exportFileName: `/` produced by the template becomes `-`, BEL becomes
 *     `/`, then `.<ext>` (the --export-filename-extension, else the format).
 * Invariant: pure string functions; the caller still has to refuse names
 * that leave the export directory.
 */

import type { JsonObject } from '../lang/common/json.js';
import { jsonObject } from '../lang/common/json.js';

export const DEFAULT_EXPORT_FILENAME_FORMAT =
  '{{.apiVersion}}.{{.kind}}-{{default "default" .metadata.namespace}}.{{.metadata.name}}';
/** Key under which the object's stream index is passed to the template. */
export const EXPORT_INDEX_KEY = '___idx___';

const BEL = '\u0007';

/** kubecfg's replaceTmplText(format, "/", BEL), including its handling of unbalanced braces. */
export function exportTemplateText(format: string): string {
  const parts: string[] = [];
  let s = format;
  let l = s.indexOf('{{');
  let r = s.indexOf('}}') + 2;
  while (l !== -1 && l < r) {
    parts.push(s.slice(0, l).replaceAll('/', BEL), s.slice(l, r));
    s = s.slice(r);
    l = s.indexOf('{{');
    r = s.indexOf('}}') + 2;
  }
  parts.push(s.replaceAll('/', BEL));
  return parts.join('');
}

/** The template's data: the object with its index added (a copy; the object is not changed). */
export function exportTemplateData(object: JsonObject, index: number): JsonObject {
  return jsonObject([...Object.entries(object), [EXPORT_INDEX_KEY, index]]);
}

/** The relative file name for the template's output. */
export function exportFileName(rendered: string, extension: string): string {
  return `${rendered.replaceAll('/', '-').replaceAll(BEL, '/')}.${extension}`;
}
