/**
 * The `kubecfg.ksonnet.io/last-applied-configuration` annotation: the
 * applied object as compact JSON (Go encoder layout: sorted keys, no HTML
 * escaping, trailing newline), gzipped and base64-encoded, as kubecfg
 * writes it. Decoding also accepts plain JSON and falls back to kubectl's
 * `kubectl.kubernetes.io/last-applied-configuration`. Invariants: the
 * annotation never contains itself; decoding failures are errors naming
 * the object, never the (possibly secret) content.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { isJsonObject, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { KubeError } from './errors.js';
import { marshal as goJson } from '../lang/go/encoding-json.js';
import { fqName, stringMapOf, withMetaEntry } from './object-meta.js';

export const ANNOTATION_LAST_APPLIED = 'kubecfg.ksonnet.io/last-applied-configuration';
const ANNOTATION_KUBECTL_LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const MAX_DECODED_BYTES = 8 * 1024 * 1024;

function encodeLastApplied(obj: JsonObject): string {
  const json = goJson(obj, { escapeHtml: false }) + '\n';
  return gzipSync(Buffer.from(json, 'utf8')).toString('base64');
}

/** Returns obj with the annotation set to the encoding of obj (without any previous annotation). */
export function withLastApplied(obj: JsonObject): JsonObject {
  const clean = withMetaEntry(obj, 'annotations', ANNOTATION_LAST_APPLIED, undefined);
  return withMetaEntry(clean, 'annotations', ANNOTATION_LAST_APPLIED, encodeLastApplied(clean));
}

/**
 * The last applied configuration of a live object, or undefined when it has
 * none. kubectl's annotation is a fallback only when asked for (diff uses
 * it; update, like kubecfg, does not).
 */
export function decodeLastApplied(live: JsonObject, includeKubectl = true): JsonObject | undefined {
  const annotations = stringMapOf(live, 'annotations');
  const ours = annotations[ANNOTATION_LAST_APPLIED];
  if (ours !== undefined && ours !== '') {
    let text: string;
    if (ours.trimStart().startsWith('{')) {
      text = ours;
    } else {
      try {
        text = gunzipSync(Buffer.from(ours, 'base64'), { maxOutputLength: MAX_DECODED_BYTES }).toString('utf8');
      } catch {
        throw new KubeError(
          'KUBE_INVALID_OBJECT',
          `${fqName(live)}: annotation ${ANNOTATION_LAST_APPLIED} is not valid gzip+base64`,
        );
      }
    }
    return parseObject(text, live, ANNOTATION_LAST_APPLIED);
  }
  const kubectl = includeKubectl ? annotations[ANNOTATION_KUBECTL_LAST_APPLIED] : undefined;
  if (kubectl !== undefined && kubectl !== '') return parseObject(kubectl, live, ANNOTATION_KUBECTL_LAST_APPLIED);
  return undefined;
}

function parseObject(text: string, live: JsonObject, annotation: string): JsonObject {
  let v: JsonValue;
  try {
    v = JSON.parse(text) as JsonValue;
  } catch {
    throw new KubeError('KUBE_INVALID_OBJECT', `${fqName(live)}: annotation ${annotation} is not valid JSON`);
  }
  if (!isJsonObject(v))
    throw new KubeError('KUBE_INVALID_OBJECT', `${fqName(live)}: annotation ${annotation} is not a JSON object`);
  return v;
}
