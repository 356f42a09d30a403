/**
 * Which live objects `update --gc-tag` may garbage-collect. An object is
 * eligible when its gc tag (label `kubecfg.ksonnet.io/garbage-collect-tag`,
 * or the older annotation of the same name) is one of ours, its
 * `kubecfg.ksonnet.io/garbage-collect-strategy` is not `ignore`, none of its
 * ownerReferences has `controller: true` (its controller manages it), and
 * its UID was not applied in this run. Invariants: pure; unknown strategy
 * values are treated as "do not collect" (fail safe).
 */
import { isJsonObject, type JsonObject } from '../lang/common/json.js';
import { metadataOf, stringMapOf, uidOf } from './object-meta.js';

export const LABEL_GC_TAG = 'kubecfg.ksonnet.io/garbage-collect-tag';
export const ANNOTATION_GC_TAG = LABEL_GC_TAG;
export const ANNOTATION_GC_STRATEGY = 'kubecfg.ksonnet.io/garbage-collect-strategy';

export type GcVerdict = { readonly eligible: true } | { readonly eligible: false; readonly why: string };

/** The gc tag an object carries and may be collected under, if any. */
export function gcTagOf(obj: JsonObject): string | undefined {
  // Only a controller reference hands the object to its owner (kubecfg's getGcTagFromObj); a plain owner
  // reference, or one with `controller: false`, leaves it to us.
  const refs = metadataOf(obj)['ownerReferences'];
  if (Array.isArray(refs) && refs.some((r) => isJsonObject(r) && r.controller === true)) return undefined;
  const annotations = stringMapOf(obj, 'annotations');
  const strategy = annotations[ANNOTATION_GC_STRATEGY] ?? 'auto';
  const tag = stringMapOf(obj, 'labels')[LABEL_GC_TAG] || annotations[ANNOTATION_GC_TAG] || '';
  return strategy === 'auto' && tag !== '' ? tag : undefined;
}

export function gcVerdict(obj: JsonObject, gcTags: ReadonlySet<string>, appliedUids: ReadonlySet<string>): GcVerdict {
  const tag = gcTagOf(obj);
  if (tag === undefined || !gcTags.has(tag)) return { eligible: false, why: 'not tagged for this gc' };
  if (appliedUids.has(uidOf(obj))) return { eligible: false, why: 'applied in this run' };
  return { eligible: true };
}
