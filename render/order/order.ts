/**
 * Apply order (`update`, `show --reorder=server`), delete order and diff
 * order, as kubecfg's utils/sort.go computes them. Each object gets a tier:
 *   10  CustomResourceDefinition (and the old ThirdPartyResource): they create types
 *   20  cluster-scoped kinds (Namespace, ClusterRole, ...)
 *   50  namespaced kinds, and kinds the cluster does not know
 *  100  namespaced kinds whose schema contains a PodSpec (they start pods)
 *  200  Validating/MutatingWebhookConfiguration: they need running services
 * then ties break by namespace, name, kind (byte order). Built-in kinds come
 * from a table generated from the Kubernetes 1.36 OpenAPI document, so no
 * cluster is needed; other kinds (CRD instances) can be described by a
 * caller-supplied lookup (e.g. from cluster discovery), else they are tier 50
 * as kubecfg treats kinds its REST mapper cannot find.
 * Invariant: sorting is stable; kubecfg's sort.Sort is not, which only
 * matters for objects that differ in apiVersion group alone.
 */

import { compareCodepoints } from '../../lang/common/json.js';
import type { FoundObject } from '../objects.js';
import { groupVersionKind, nameOf, namespaceOf } from '../k8s-meta.js';
import type { GroupVersionKind } from '../k8s-meta.js';
import { BUILTIN_KIND_ROWS } from './builtin-kinds.js';

export interface KindInfo {
  namespaced: boolean;
  containsPodSpec: boolean;
}

/** Describes a kind the built-in table does not know; undefined = unknown to the cluster too. */
export type KindLookup = (gvk: GroupVersionKind) => KindInfo | undefined;

const BUILTIN_KINDS: ReadonlyMap<string, KindInfo> = new Map(
  BUILTIN_KIND_ROWS.map(([key, namespaced, containsPodSpec]) => [key, { namespaced, containsPodSpec }]),
);

function builtinKindInfo(gvk: GroupVersionKind): KindInfo | undefined {
  const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
  return BUILTIN_KINDS.get(`${apiVersion}/${gvk.kind}`);
}

export function dependencyTier(gvk: GroupVersionKind, lookup?: KindLookup): number {
  if (
    (gvk.group === 'extensions' && gvk.kind === 'ThirdPartyResource') ||
    (gvk.group === 'apiextensions.k8s.io' && gvk.kind === 'CustomResourceDefinition')
  )
    return 10;
  if (
    gvk.group === 'admissionregistration.k8s.io' &&
    (gvk.kind === 'ValidatingWebhookConfiguration' || gvk.kind === 'MutatingWebhookConfiguration')
  )
    return 200;
  const info = builtinKindInfo(gvk) ?? lookup?.(gvk);
  if (info === undefined) return 50;
  if (!info.namespaced) return 20;
  return info.containsPodSpec ? 100 : 50;
}

/** utils.AlphabeticalOrder: namespace, then name, then kind. */
function compareAlphabetically(a: FoundObject, b: FoundObject): number {
  return (
    compareCodepoints(namespaceOf(a.object), namespaceOf(b.object)) ||
    compareCodepoints(nameOf(a.object), nameOf(b.object)) ||
    compareCodepoints(groupVersionKind(a.object).kind, groupVersionKind(b.object).kind)
  );
}

function sortByTier(objects: FoundObject[], lookup: KindLookup | undefined, direction: 1 | -1): FoundObject[] {
  const keyed = objects.map((f) => ({ f, tier: dependencyTier(groupVersionKind(f.object), lookup) }));
  keyed.sort((x, y) => direction * (x.tier - y.tier || compareAlphabetically(x.f, y.f)));
  return keyed.map((k) => k.f);
}

/** The order `kubecfg update` applies objects in (and `show --reorder=server` prints them in). */
export function orderForApply(objects: FoundObject[], lookup?: KindLookup): FoundObject[] {
  return sortByTier(objects, lookup, 1);
}

/** The order `kubecfg delete` deletes objects in: the exact reverse of the apply order. */
export function orderForDelete(objects: FoundObject[], lookup?: KindLookup): FoundObject[] {
  return sortByTier(objects, lookup, -1);
}

/** The order `kubecfg diff` compares objects in. */
export function orderAlphabetically(objects: FoundObject[]): FoundObject[] {
  return [...objects].sort(compareAlphabetically);
}
