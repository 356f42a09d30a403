/**
 * The object kubecfg's update writes: the live object, plus what changed
 * between the last-applied configuration ("original") and the new one
 * ("desired"), with the new configuration winning over live values.
 * With a schema (built-in kinds) this is a strategic merge: lists whose
 * field says `x-kubernetes-patch-strategy: merge` merge by their merge key
 * (or as sets of scalars), `retainKeys` drops live keys the config does not
 * set; without one (custom resources) it is a JSON merge where lists
 * replace. Fields present in original but gone from desired are removed;
 * `null` in desired removes a field. Invariants: pure; inputs untouched.
 * Known simplification: merged list elements come in desired order, then
 * live-only elements in live order (the apiserver interleaves them).
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonObject, type JsonValue } from '../lang/common/json.js';
import { patchMetaOf, type OpenApiSchema, type SchemaNode } from './openapi-schema.js';

export interface MergeSchema {
  readonly schema: OpenApiSchema;
  readonly kind: SchemaNode;
}

export function threeWayMerge(
  original: JsonValue | undefined,
  desired: JsonValue,
  live: JsonValue,
  schema: MergeSchema | undefined,
): JsonValue {
  return mergeValue(original, desired, live, schema?.schema, schema?.kind);
}

function mergeValue(
  original: JsonValue | undefined,
  desired: JsonValue,
  live: JsonValue | undefined,
  schema: OpenApiSchema | undefined,
  node: SchemaNode | undefined,
): JsonValue {
  if (isJsonObject(desired) && isJsonObject(live))
    return mergeObject(isJsonObject(original) ? original : undefined, desired, live, schema, node, false);
  return withoutNulls(desired);
}

function mergeObject(
  original: JsonObject | undefined,
  desired: JsonObject,
  live: JsonObject,
  schema: OpenApiSchema | undefined,
  node: SchemaNode | undefined,
  retainKeys: boolean,
): JsonObject {
  const result = jsonObject(Object.entries(live));
  if (retainKeys) {
    for (const k of Object.keys(result)) if (!Object.hasOwn(desired, k)) delete result[k];
  }
  if (original !== undefined) {
    for (const k of Object.keys(original)) if (!Object.hasOwn(desired, k)) delete result[k];
  }
  for (const [k, want] of Object.entries(desired)) {
    if (want === null) {
      delete result[k];
      continue;
    }
    const field = schema?.fieldSchema(node, k);
    const orig = original !== undefined && Object.hasOwn(original, k) ? original[k] : undefined;
    const have = Object.hasOwn(result, k) ? result[k] : undefined;
    const meta = patchMetaOf(field);
    if (Array.isArray(want) && Array.isArray(have) && schema !== undefined && meta.strategies.includes('merge')) {
      setJsonKey(result, k, mergeList(Array.isArray(orig) ? orig : [], want, have, schema, field, meta.mergeKey));
    } else if (isJsonObject(want) && isJsonObject(have)) {
      setJsonKey(
        result,
        k,
        mergeObject(
          isJsonObject(orig) ? orig : undefined,
          want,
          have,
          schema,
          field,
          meta.strategies.includes('retainKeys'),
        ),
      );
    } else {
      setJsonKey(result, k, withoutNulls(want));
    }
  }
  return result;
}

function mergeList(
  original: readonly JsonValue[],
  desired: readonly JsonValue[],
  live: readonly JsonValue[],
  schema: OpenApiSchema,
  field: SchemaNode | undefined,
  mergeKey: string | undefined,
): JsonValue[] {
  if (mergeKey === undefined) {
    const removed = original.filter((o) => !desired.some((d) => same(d, o)));
    const kept = live.filter((l) => !removed.some((r) => same(r, l)));
    const ordered = desired.map(withoutNulls);
    return [...ordered, ...kept.filter((l) => !ordered.some((d) => same(d, l)))];
  }
  const keyOf = (v: JsonValue): string | undefined =>
    isJsonObject(v) && Object.hasOwn(v, mergeKey) ? JSON.stringify(v[mergeKey]) : undefined;
  const desiredKeys = new Set(desired.map(keyOf));
  const removed = new Set(original.map(keyOf).filter((k) => k !== undefined && !desiredKeys.has(k)));
  const itemNode = schema.itemSchema(field);
  const merged: JsonValue[] = desired.map((d) => {
    const k = keyOf(d);
    const l = k === undefined ? undefined : live.find((x) => keyOf(x) === k);
    const o = k === undefined ? undefined : original.find((x) => keyOf(x) === k);
    return l !== undefined && isJsonObject(d) && isJsonObject(l)
      ? mergeObject(isJsonObject(o) ? o : undefined, d, l, schema, itemNode, false)
      : withoutNulls(d);
  });
  const liveOnly = live.filter((l) => {
    const k = keyOf(l);
    return k === undefined || (!desiredKeys.has(k) && !removed.has(k));
  });
  return [...merged, ...liveOnly];
}

function withoutNulls(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (isJsonObject(v))
    return jsonObject(
      Object.entries(v)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, withoutNulls(x)] as const),
    );
  return v;
}

function same(a: JsonValue, b: JsonValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
