/**
 * RFC 6902 JSON patch (add, remove, replace, move, copy, test) with RFC 6901
 * pointers. Invariants: the input document is not mutated; any failure is a
 * returned error naming the operation index and pointer, never a throw.
 */
import { isJsonObject, setJsonKey, type JsonValue } from '../../lang/common/json.js';

export type JsonPatchResult =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: string };

class PatchError extends Error {}

export function applyJsonPatch(document: JsonValue, operations: JsonValue): JsonPatchResult {
  if (!Array.isArray(operations)) return { ok: false, error: 'json patch must be an array of operations' };
  let doc: JsonValue = structuredClone(document);
  for (const [index, op] of operations.entries()) {
    try {
      if (!isJsonObject(op) || typeof op['op'] !== 'string' || typeof op['path'] !== 'string') {
        throw new PatchError('operation needs string "op" and "path"');
      }
      doc = applyOne(doc, op['op'], op['path'], op);
    } catch (err) {
      if (err instanceof PatchError) return { ok: false, error: `json patch operation ${index}: ${err.message}` };
      throw err;
    }
  }
  return { ok: true, value: doc };
}

function applyOne(doc: JsonValue, op: string, path: string, spec: Record<string, JsonValue>): JsonValue {
  const value = (): JsonValue => {
    if (!Object.hasOwn(spec, 'value')) throw new PatchError(`"${op}" at ${path} needs a "value"`);
    return structuredClone(spec['value']!);
  };
  const from = (): string => {
    const f = spec['from'];
    if (typeof f !== 'string') throw new PatchError(`"${op}" at ${path} needs a string "from"`);
    return f;
  };
  switch (op) {
    case 'add':
      return insert(doc, path, value(), false);
    case 'remove':
      return remove(doc, path).doc;
    case 'replace':
      return insert(remove(doc, path).doc, path, value(), true);
    case 'move': {
      const src = from();
      if (path.startsWith(src + '/')) throw new PatchError(`cannot move ${src} into its own child ${path}`);
      const removed = remove(doc, src);
      return insert(removed.doc, path, removed.value, false);
    }
    case 'copy':
      return insert(doc, path, structuredClone(get(doc, from())), false);
    case 'test':
      if (JSON.stringify(canonical(get(doc, path))) !== JSON.stringify(canonical(value())))
        throw new PatchError(`test failed at ${path}`);
      return doc;
    default:
      throw new PatchError(`unknown op ${JSON.stringify(op)}`);
  }
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid pointer ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(arr: readonly JsonValue[], token: string, forInsert: boolean, path: string): number {
  if (forInsert && token === '-') return arr.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new PatchError(`invalid array index ${JSON.stringify(token)} in ${path}`);
  const i = Number(token);
  if (i > arr.length || (!forInsert && i === arr.length)) throw new PatchError(`index ${i} out of range in ${path}`);
  return i;
}

function parentOf(doc: JsonValue, tokens: readonly string[], path: string): JsonValue {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[arrayIndex(node, t, false, path)]!;
    else if (isJsonObject(node) && Object.hasOwn(node, t)) node = node[t]!;
    else throw new PatchError(`path ${path} does not exist`);
  }
  return node;
}

function get(doc: JsonValue, path: string): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false, path)]!;
  if (isJsonObject(parent) && Object.hasOwn(parent, last)) return parent[last]!;
  throw new PatchError(`path ${path} does not exist`);
}

function insert(doc: JsonValue, path: string, value: JsonValue, mustExist: boolean): JsonValue {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, !mustExist, path), 0, value);
  else if (isJsonObject(parent)) setJsonKey(parent, last, value);
  else throw new PatchError(`path ${path} does not name a container`);
  return doc;
}

function remove(doc: JsonValue, path: string): { doc: JsonValue; value: JsonValue } {
  const tokens = parsePointer(path);
  if (tokens.length === 0) throw new PatchError('cannot remove the whole document');
  const parent = parentOf(doc, tokens, path);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) {
    const [removed] = parent.splice(arrayIndex(parent, last, false, path), 1);
    return { doc, value: removed! };
  }
  if (isJsonObject(parent) && Object.hasOwn(parent, last)) {
    const value = parent[last]!;
    delete parent[last];
    return { doc, value };
  }
  throw new PatchError(`path ${path} does not exist`);
}

function canonical(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(canonical);
  if (isJsonObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k]!)]),
    );
  return v;
}
