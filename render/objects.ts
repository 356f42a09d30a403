/**
 * Object discovery, as `kubecfg show/update/diff` find Kubernetes objects in
 * the evaluated value (utils/acquire.go jsonWalk + utils/duplicates.go):
 *  - null is skipped; an object with non-null `kind` and `apiVersion` is a
 *    Kubernetes object; one whose `items` is an array is a list and yields
 *    its items (not searched further: a list inside a list stays whole),
 *    each with the list's path plus `.item`;
 *  - any other object is searched field by field in byte order of the keys,
 *    arrays element by element; any other value is an error naming the path;
 *  - labels/annotations must be maps of strings;
 *  - objects with the same group, kind, namespace and name are elided when
 *    identical (ignoring provenance annotations) and an error otherwise.
 * Order of the result = traversal order (kubecfg show does not sort unless
 * --reorder is given, see order.ts).
 */

import type { JsonObject, JsonValue } from '../lang/common/json.js';
import { isJsonObject, sortedKeys } from '../lang/common/json.js';
import { guardDepth, RenderError } from './errors.js';
import { quote as goQuote } from '../lang/go/strconv.js';
import { goTypeName, goValueString } from '../lang/go/fmt.js';
import { fieldAccessor, indexAccessor, ROOT_PATH } from './path.js';
import { groupKindString, groupVersionKind, nameOf, namespaceOf } from './k8s-meta.js';
import { goMarshalIndent } from './output/json.js';
import { PROVENANCE_FILE_ANNOTATION, PROVENANCE_PATH_ANNOTATION } from './provenance-keys.js';

export interface FoundObject {
  object: JsonObject;
  /** kubecfg's value path of the object, e.g. `$.foo.bar[1]` (list items: the list's path + `.item`). */
  path: string;
}

function isList(obj: JsonObject): boolean {
  return Object.hasOwn(obj, 'items') && Array.isArray(obj.items);
}

/** validateUnstructuredObject: list items must be objects, labels/annotations string maps. */
function validateObject(obj: JsonObject, path: string): void {
  if (isList(obj)) {
    for (const item of obj.items as JsonValue[]) {
      if (!isJsonObject(item)) {
        // apimachinery prints the type of its failed conversion target, hence always this type name.
        throw new RenderError('RENDER_BAD_LIST', 'items member is not an object: map[string]interface {}', path);
      }
      validateObject(item, path);
    }
    return;
  }
  for (const field of ['annotations', 'labels']) {
    const metadata = Object.hasOwn(obj, 'metadata') ? obj.metadata! : null;
    if (metadata === null) continue;
    if (!isJsonObject(metadata)) {
      throw new RenderError(
        'RENDER_BAD_METADATA',
        `.metadata.${field} accessor error: ${goValueString(metadata)} is of the type ${goTypeName(metadata)}, expected map[string]interface{}`,
        path,
      );
    }
    const value = Object.hasOwn(metadata, field) ? metadata[field]! : null;
    if (value === null) continue;
    const isStringMap = isJsonObject(value) && Object.values(value).every((x) => typeof x === 'string');
    if (!isStringMap) {
      const gvk = groupVersionKind(obj);
      const id = `${gvk.version}/${groupKindString(gvk)}.${namespaceOf(obj)}/${nameOf(obj)}`;
      throw new RenderError(
        'RENDER_BAD_METADATA',
        `${field} map contains invalid (non-string) values in resource: ${id}`,
        path,
      );
    }
  }
}

function walk(value: JsonValue, path: string, found: FoundObject[]): void {
  if (value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, path + indexAccessor(i), found));
    return;
  }
  if (isJsonObject(value)) {
    const kind = Object.hasOwn(value, 'kind') ? value.kind : null;
    const apiVersion = Object.hasOwn(value, 'apiVersion') ? value.apiVersion : null;
    if (kind !== null && kind !== undefined && apiVersion !== null && apiVersion !== undefined) {
      validateObject(value, path);
      if (isList(value)) {
        for (const item of value.items as JsonObject[]) found.push({ object: item, path: path + '.item' });
      } else found.push({ object: value, path });
      return;
    }
    for (const key of sortedKeys(value)) walk(value[key]!, path + fieldAccessor(key), found);
    return;
  }
  throw new RenderError(
    'RENDER_NOT_AN_OBJECT',
    `Looking for kubernetes object at ${goQuote(path)}, but instead found ${goTypeName(value)}`,
    path,
  );
}

/** The object without kubecfg's provenance annotations, as compared by RemoveDuplicates. */
function identityJson(obj: JsonObject): string {
  const metadata = obj.metadata;
  if (!isJsonObject(metadata) || !isJsonObject(metadata.annotations)) return goMarshalIndent(obj, null);
  const annotations = { ...metadata.annotations };
  delete annotations[PROVENANCE_FILE_ANNOTATION];
  delete annotations[PROVENANCE_PATH_ANNOTATION];
  return goMarshalIndent({ ...obj, metadata: { ...metadata, annotations } }, null);
}

/**
 * utils.RemoveDuplicates: keeps the first of identical objects with the same
 * group/kind/namespace/name, fails on different ones. kubecfg's message is
 * kept and the two paths are appended.
 */
export function removeDuplicates(found: FoundObject[]): FoundObject[] {
  // Serialising only when two objects share an identity: most renders have no duplicate, and
  // marshalling every object here cost a tenth of a warm render (bench/daemon, 1,000 objects).
  const seen = new Map<string, { object: JsonObject; json?: string; path: string }>();
  const out: FoundObject[] = [];
  for (const f of found) {
    const key = `${groupKindString(groupVersionKind(f.object))}, ${goQuote(namespaceOf(f.object))}, ${goQuote(nameOf(f.object))}`;
    const prior = seen.get(key);
    if (prior) {
      prior.json ??= guardDepth(() => identityJson(prior.object));
      if (prior.json === guardDepth(() => identityJson(f.object))) continue;
      throw new RenderError('RENDER_DUPLICATE', `duplicate resource ${key}\nat ${prior.path} and ${f.path}`, f.path);
    }
    seen.set(key, { object: f.object, path: f.path });
    out.push(f);
  }
  return out;
}

/** All Kubernetes objects in an evaluated value, in kubecfg's order, duplicates kept. */
export function findObjectsUnchecked(value: JsonValue): FoundObject[] {
  const found: FoundObject[] = [];
  guardDepth(() => walk(value, ROOT_PATH, found));
  return found;
}

/** All Kubernetes objects in an evaluated value, in kubecfg's order, duplicates removed. */
export function findObjects(value: JsonValue): FoundObject[] {
  return removeDuplicates(findObjectsUnchecked(value));
}
