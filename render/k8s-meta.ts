/**
 * Reading identity fields of an unstructured Kubernetes object the way
 * apimachinery's Unstructured accessors do: a field that is missing or not a
 * string reads as "", apiVersion splits into group/version as
 * schema.ParseGroupVersion does (more than one `/` makes the whole
 * group/version/kind empty).
 */

import type { JsonObject, JsonValue } from '../lang/common/json.js';
import { isJsonObject } from '../lang/common/json.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export function nestedString(obj: JsonObject, ...fields: string[]): string {
  let v: JsonValue | undefined = obj;
  for (const f of fields) {
    if (!isJsonObject(v) || !Object.hasOwn(v, f)) return '';
    v = v[f];
  }
  return typeof v === 'string' ? v : '';
}

export function groupVersionKind(obj: JsonObject): GroupVersionKind {
  const apiVersion = nestedString(obj, 'apiVersion');
  const kind = nestedString(obj, 'kind');
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  if (slashes === 1) {
    const i = apiVersion.indexOf('/');
    return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1), kind };
  }
  return { group: '', version: '', kind: '' };
}

/** schema.GroupKind.String(): `Kind.group`, or `Kind` for the core group. */
export function groupKindString(gvk: GroupVersionKind): string {
  return gvk.group === '' ? gvk.kind : `${gvk.kind}.${gvk.group}`;
}

export function namespaceOf(obj: JsonObject): string {
  return nestedString(obj, 'metadata', 'namespace');
}

export function nameOf(obj: JsonObject): string {
  return nestedString(obj, 'metadata', 'name');
}
