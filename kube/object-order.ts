/**
 * The orders kubecfg processes objects in. alphabeticalOrder (diff):
 * namespace, then name, then kind. dependencyOrder (update; delete runs it
 * reversed) is render's orderForApply — CRDs first (tier 10), cluster-scoped
 * kinds (20), other kinds (50), kinds whose schema contains a PodSpec (100),
 * admission webhooks last (200), ties alphabetical — told about kinds beyond
 * its built-in table (custom resources) by this cluster's discovery and
 * OpenAPI schema. Kinds the server does not know get tier 50.
 * Invariants: stable; the input array is not modified.
 */
import { compareCodepoints, type JsonObject } from '../lang/common/json.js';
import type { ClusterDiscovery } from './discovery.js';
import { orderForApply, type KindInfo } from '../render/index.js';
import { apiVersionOfObject, kindOf, nameOf, namespaceOf } from './object-meta.js';
import { parseApiVersion, type OpenApiSchema, type SchemaNode } from './openapi-schema.js';

/** An ordering of objects; render/ may supply its own (orderForApply). */
export type ObjectOrder = (objects: readonly JsonObject[]) => Promise<JsonObject[]> | JsonObject[];

export function compareAlphabetical(a: JsonObject, b: JsonObject): number {
  return (
    compareCodepoints(namespaceOf(a), namespaceOf(b)) ||
    compareCodepoints(nameOf(a), nameOf(b)) ||
    compareCodepoints(kindOf(a), kindOf(b))
  );
}

export function alphabeticalOrder(objects: readonly JsonObject[]): JsonObject[] {
  return [...objects].sort(compareAlphabetical);
}

export function dependencyOrder(discovery: ClusterDiscovery): ObjectOrder {
  return async (objects) => {
    const schema = await discovery.openapi().catch(() => undefined);
    const podSpecMemo = new Map<SchemaNode, boolean>();
    // render's lookup is synchronous: resolve every kind of the input against the cluster first.
    const kinds = new Map<string, KindInfo>();
    for (const obj of objects) {
      const apiVersion = apiVersionOfObject(obj);
      const kind = kindOf(obj);
      const key = `${apiVersion}/${kind}`;
      if (kinds.has(key)) continue;
      const resource = await discovery.lookup(apiVersion, kind).catch(() => undefined);
      if (resource === undefined) continue;
      const kindSchema = schema?.forKind({ ...parseApiVersion(apiVersion), kind });
      const containsPod =
        schema !== undefined && kindSchema !== undefined && containsPodSpec(schema, kindSchema, podSpecMemo, new Set());
      kinds.set(key, { namespaced: resource.namespaced, containsPodSpec: containsPod });
    }
    const lookup = (gvk: { group: string; version: string; kind: string }): KindInfo | undefined =>
      kinds.get(`${gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`}/${gvk.kind}`);
    return orderForApply(
      objects.map((object) => ({ object, path: '' })),
      lookup,
    ).map((found) => found.object);
  };
}

const POD_SPEC_REF = '#/definitions/io.k8s.api.core.v1.PodSpec';

function containsPodSpec(
  schema: OpenApiSchema,
  node: SchemaNode,
  memo: Map<SchemaNode, boolean>,
  visiting: Set<SchemaNode>,
): boolean {
  if (node.$ref === POD_SPEC_REF) return true;
  const known = memo.get(node);
  if (known !== undefined) return known;
  if (visiting.has(node)) return false;
  visiting.add(node);
  const children: SchemaNode[] = [];
  const resolved = schema.resolve(node);
  if (resolved !== undefined && resolved !== node) children.push(resolved);
  if (resolved?.properties !== undefined) children.push(...Object.values(resolved.properties));
  if (resolved?.items !== undefined) children.push(resolved.items);
  if (typeof resolved?.additionalProperties === 'object') children.push(resolved.additionalProperties);
  const found = children.some((c) => containsPodSpec(schema, c, memo, visiting));
  visiting.delete(node);
  memo.set(node, found);
  return found;
}
