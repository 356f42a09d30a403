/**
 * render/: kubecfg's rendering semantics, pure (no I/O, no clock, no env).
 * Inputs and outputs are JSON values (lang/common/json.ts) and strings; the
 * strings are byte-for-byte what kubecfg prints.
 */

export type { JsonObject, JsonValue } from '../lang/common/json.js';
export { guardDepth, RenderError } from './errors.js';
export type { RenderErrorCode } from './errors.js';
export { formatYamlDocuments, marshalKubecfgYaml } from './output/yaml.js';
export { formatJsonObjects, goMarshalIndent } from './output/json.js';
export { formatEval } from './output/eval.js';
export { findObjects, findObjectsUnchecked, removeDuplicates } from './objects.js';
export { renderShow, showObjects } from './show.js';
export type { ShowInput, ShowOptions } from './show.js';
export type { FoundObject } from './objects.js';
export { addProvenance, PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION } from './provenance.js';
export { orderForApply, orderForDelete, orderAlphabetically, dependencyTier } from './order/order.js';
export type { KindInfo, KindLookup } from './order/order.js';
export { kubecfgNatives } from './natives/index.js';
export type { NativeFunction } from './natives/index.js';
export { kubecfgLibsonnet } from './kubecfg-lib.js';
export {
  DEFAULT_EXPORT_FILENAME_FORMAT,
  EXPORT_INDEX_KEY,
  exportFileName,
  exportTemplateData,
  exportTemplateText,
} from './export-names.js';
export { objectsFromManifestFile } from './manifest-files.js';
export type { GroupVersionKind } from './k8s-meta.js';
