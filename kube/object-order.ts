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
import { dependencyTier, orderForApply, type KindInfo, type KindLookup } from '../render/index.js';
import { apiVersionOfObject, kindOf, nameOf, namespaceOf } from './object-meta.js';
import { parseApiVersion, type OpenApiSchema, type SchemaNode } from './openapi-schema.js';

/** An ordering of objects; render/ may supply its own (orderForApply). */
export type ObjectOrder = (objects: readonly JsonObject[]) => Promise<JsonObject[]> | JsonObject[];

function compareAlphabetical(a: JsonObject, b: JsonObject): number {
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
  return async (objects) =>
    orderForApply(
      objects.map((object) => ({ object, path: '' })),
      await kindLookupFor(discovery, objects),
    ).map((found) => found.object);
}

/**
 * The dependency order cut into its tiers (CRDs, cluster-scoped, namespaced, PodSpec
 * holders, webhooks): objects of one tier do not depend on each other's creation, so
 * update may apply them in parallel; tiers stay strictly in order.
 */
export async function dependencyTiers(
  discovery: ClusterDiscovery,
  objects: readonly JsonObject[],
): Promise<JsonObject[][]> {
  const lookup = await kindLookupFor(discovery, objects);
  const tiers: JsonObject[][] = [];
  let current = Number.NaN;
  for (const { object } of orderForApply(
    objects.map((o) => ({ object: o, path: '' })),
    lookup,
  )) {
    const tier = dependencyTier({ ...parseApiVersion(apiVersionOfObject(object)), kind: kindOf(object) }, lookup);
    if (tier !== current) tiers.push([]);
    current = tier;
    tiers[tiers.length - 1]!.push(object);
  }
  return tiers;
}

/** render's lookup is synchronous: resolve every kind of the input against the cluster first. */
async function kindLookupFor(discovery: ClusterDiscovery, objects: readonly JsonObject[]): Promise<KindLookup> {
  const schema = await discovery.openapi().catch(() => undefined);
  const podSpecMemo = new Map<SchemaNode, boolean>();
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
  return (gvk: { group: string; version: string; kind: string }): KindInfo | undefined =>
    kinds.get(`${gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`}/${gvk.kind}`);
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
