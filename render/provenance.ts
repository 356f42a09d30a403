/**
 * `--show-provenance`: kubecfg annotates each found object with the file it
 * came from (the path argument exactly as given on the command line; kubecfg
 * does not resolve or normalise it, and omits the annotation when it is
 * empty) and its value path (see path.ts). Like apimachinery's SetAnnotations,
 * a `metadata` that exists but is not an object (e.g. null) makes kubecfg
 * silently skip the annotations. Invariant: the input object is not mutated.
 */

import type { JsonObject } from '../lang/common/json.js';
import { isJsonObject, jsonObject } from '../lang/common/json.js';
import type { FoundObject } from './objects.js';
import { PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION } from './provenance-keys.js';

export { PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION };

export function addProvenance(found: FoundObject, file: string): JsonObject {
  const obj = found.object;
  const hasMetadata = Object.hasOwn(obj, 'metadata');
  const metadata = hasMetadata ? obj.metadata! : {};
  if (!isJsonObject(metadata)) return obj;
  const existing =
    Object.hasOwn(metadata, 'annotations') && isJsonObject(metadata.annotations) ? metadata.annotations : {};
  const annotations = jsonObject(Object.entries(existing));
  if (file !== '') annotations[PROVENANCE_FILE_ANNOTATION] = file;
  annotations[PROVENANCE_PATH_ANNOTATION] = found.path;
  const newMetadata = jsonObject([
    ...Object.entries(metadata).filter(([k]) => k !== 'annotations'),
    ['annotations', annotations],
  ]);
  return jsonObject([...Object.entries(obj).filter(([k]) => k !== 'metadata'), ['metadata', newMetadata]]);
}
