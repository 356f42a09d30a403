/**
 * Server-side strategic merge patch for built-in kinds. Lists whose field
 * carries `x-kubernetes-patch-strategy: merge` merge element-wise, by
 * `x-kubernetes-patch-merge-key` for lists of objects and as a set for lists
 * of scalars; other lists replace. Directives handled: `$patch: replace` and
 * `$patch: delete` (on maps and on list elements), `$setElementOrder/<f>`,
 * `$deleteFromPrimitiveList/<f>` and `$retainKeys`. Invariants: inputs are
 * not mutated; malformed directives give an error string, never a throw.
 */
import { isJsonObject, jsonObject, setJsonKey, type JsonObject, type JsonValue } from '../../lang/common/json.js';
import { patchMetaOf, type OpenApiSchema, type SchemaNode } from '../../kube/openapi-schema.js';

export type StrategicResult =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: string };

class StrategicError extends Error {}

const DELETED = Symbol('deleted');

export function applyStrategicMergePatch(
  schema: OpenApiSchema,
  kindSchema: SchemaNode,
  live: JsonValue,
  patch: JsonValue,
): StrategicResult {
  try {
    const merged = mergeValue(schema, kindSchema, live, patch, '');
    return { ok: true, value: merged === DELETED ? jsonObject([]) : merged };
  } catch (err) {
    if (err instanceof StrategicError) return { ok: false, error: err.message };
    throw err;
  }
}

function mergeValue(
  schema: OpenApiSchema,
  node: SchemaNode | undefined,
  live: JsonValue | undefined,
  patch: JsonValue,
  path: string,
): JsonValue | typeof DELETED {
  if (!isJsonObject(patch)) return patch;
  const directive = patch['$patch'];
  if (directive === 'delete') return DELETED;
  if (directive === 'replace') return withoutDirectives(patch);
  if (directive !== undefined)
    throw new StrategicError(`${path || '<root>'}: unknown $patch directive ${JSON.stringify(directive)}`);

  const result = isJsonObject(live) ? jsonObject(Object.entries(live)) : jsonObject([]);
  const orders = new Map<string, JsonValue[]>();
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$setElementOrder/')) {
      if (!Array.isArray(value)) throw new StrategicError(`${path}/${key}: must be a list`);
      orders.set(key.slice('$setElementOrder/'.length), value);
      continue;
    }
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = result[field];
      if (!Array.isArray(value)) throw new StrategicError(`${path}/${key}: must be a list`);
      if (Array.isArray(current))
        setJsonKey(
          result,
          field,
          current.filter((x) => !value.some((d) => sameScalar(d, x))),
        );
      continue;
    }
    if (key === '$retainKeys') continue;
    const childPath = `${path}/${key}`;
    if (value === null) {
      delete result[key];
      continue;
    }
    const field = schema.fieldSchema(node, key);
    const current = Object.hasOwn(result, key) ? result[key] : undefined;
    let merged: JsonValue | typeof DELETED;
    if (Array.isArray(value)) merged = mergeList(schema, field, current, value, childPath);
    else merged = mergeValue(schema, field, current, value, childPath);
    if (merged === DELETED) delete result[key];
    else setJsonKey(result, key, merged);
  }
  for (const [field, order] of orders) {
    const current = result[field];
    if (Array.isArray(current))
      setJsonKey(result, field, reorder(current, order, patchMetaOf(schema.fieldSchema(node, field)).mergeKey));
  }
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }
  return result;
}

function mergeList(
  schema: OpenApiSchema,
  field: SchemaNode | undefined,
  live: JsonValue | undefined,
  patch: JsonValue[],
  path: string,
): JsonValue {
  const meta = patchMetaOf(field);
  const liveList = Array.isArray(live) ? live : [];
  if (!meta.strategies.includes('merge'))
    return patch.filter((x) => !(isJsonObject(x) && x['$patch'] !== undefined)).map(withoutDirectivesDeep);
  if (patch.some((x) => isJsonObject(x) && x['$patch'] === 'replace')) {
    return patch.filter((x) => !(isJsonObject(x) && x['$patch'] === 'replace')).map(withoutDirectivesDeep);
  }
  if (meta.mergeKey === undefined) {
    const result = [...liveList];
    for (const item of patch) if (!result.some((x) => sameScalar(x, item))) result.push(item);
    return result;
  }
  const key = meta.mergeKey;
  const itemNode = schema.itemSchema(field);
  const result: JsonValue[] = [...liveList];
  for (const [i, item] of patch.entries()) {
    if (!isJsonObject(item) || !Object.hasOwn(item, key))
      throw new StrategicError(`${path}/${i}: element has no merge key ${JSON.stringify(key)}`);
    const at = result.findIndex((x) => isJsonObject(x) && sameScalar(x[key], item[key]));
    if (item['$patch'] === 'delete') {
      if (at >= 0) result.splice(at, 1);
      continue;
    }
    if (at >= 0) {
      const merged = mergeValue(schema, itemNode, result[at], item, `${path}/${i}`);
      if (merged === DELETED) result.splice(at, 1);
      else result[at] = merged;
    } else {
      result.push(withoutDirectivesDeep(item));
    }
  }
  return result;
}

/** Elements named in `order` come first in that order; the rest keep their relative order after them. */
function reorder(list: JsonValue[], order: JsonValue[], mergeKey: string | undefined): JsonValue[] {
  const identity = (x: JsonValue): JsonValue => (mergeKey !== undefined && isJsonObject(x) ? (x[mergeKey] ?? null) : x);
  const ordered: JsonValue[] = [];
  const rest = [...list];
  for (const o of order) {
    const want = identity(o);
    const at = rest.findIndex((x) => sameScalar(identity(x), want));
    if (at >= 0) ordered.push(...rest.splice(at, 1));
  }
  return [...ordered, ...rest];
}

function sameScalar(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function withoutDirectives(obj: JsonObject): JsonObject {
  return jsonObject(Object.entries(obj).filter(([k]) => !k.startsWith('$')));
}

function withoutDirectivesDeep(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutDirectivesDeep);
  if (isJsonObject(v))
    return jsonObject(
      Object.entries(v)
        .filter(([k]) => !k.startsWith('$'))
        .map(([k, x]) => [k, withoutDirectivesDeep(x)] as const),
    );
  return v;
}
