/**
 * Accessors for the metadata of Kubernetes objects held as plain JSON, and
 * the names kubecfg prints for them. Invariants: setters copy-on-write the
 * metadata maps they touch; getters never throw on malformed metadata.
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonObject } from '../lang/common/json.js';
import { parseApiVersion } from './openapi-schema.js';

export function metadataOf(obj: JsonObject): JsonObject {
  const m = obj['metadata'];
  return isJsonObject(m) ? m : jsonObject([]);
}

function metaString(obj: JsonObject, key: string): string {
  const v = metadataOf(obj)[key];
  return typeof v === 'string' ? v : '';
}

export const nameOf = (obj: JsonObject): string => metaString(obj, 'name');
export const namespaceOf = (obj: JsonObject): string => metaString(obj, 'namespace');
export const uidOf = (obj: JsonObject): string => metaString(obj, 'uid');
export const kindOf = (obj: JsonObject): string => (typeof obj['kind'] === 'string' ? obj['kind'] : '');
export const apiVersionOfObject = (obj: JsonObject): string =>
  typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';

export function groupOf(obj: JsonObject): string {
  return parseApiVersion(apiVersionOfObject(obj)).group;
}

export function stringMapOf(obj: JsonObject, key: 'labels' | 'annotations'): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  const m = metadataOf(obj)[key];
  if (isJsonObject(m)) for (const [k, v] of Object.entries(m)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `namespace.name`, or `name` for cluster-scoped objects: kubecfg's FqName. */
export function fqName(obj: JsonObject): string {
  const ns = namespaceOf(obj);
  return ns === '' ? nameOf(obj) : `${ns}.${nameOf(obj)}`;
}

/** Returns a copy of obj whose metadata[key][name] is value (or removed when value is undefined). */
export function withMetaEntry(
  obj: JsonObject,
  key: 'labels' | 'annotations',
  name: string,
  value: string | undefined,
): JsonObject {
  const meta = jsonObject(Object.entries(metadataOf(obj)));
  const current = meta[key];
  const map = isJsonObject(current) ? jsonObject(Object.entries(current)) : jsonObject([]);
  if (value === undefined) delete map[name];
  else setJsonKey(map, name, value);
  if (Object.keys(map).length === 0 && value === undefined && !isJsonObject(current)) {
    // nothing to remove and no map before: leave metadata untouched
  } else {
    setJsonKey(meta, key, map);
  }
  const out = jsonObject(Object.entries(obj));
  out['metadata'] = meta;
  return out;
}
