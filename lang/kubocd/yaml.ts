/**
 * YAML as KuboCD reads it (go-yaml v2 through sigs.k8s.io/yaml): YAML 1.1,
 * every number a float64 after the JSON round trip (integral ones as GoFloat),
 * map keys converted to strings. A map whose keys collide once converted
 * (`1` and "1", `true` and "true", or a repeated key), or with a key that has
 * no string form (null, a list, a map), is an error. Messages name neither keys
 * nor values, and an invalid document is located by its line only.
 */

import { isMap as isYamlMap, isScalar, isSeq, isAlias, parseAllDocuments } from 'yaml';
import { goYamlTags } from '../gotemplate/index.js';
import { GoFloat, goFloat } from '../gotemplate/index.js';
import { mapSet } from '../gotemplate/value.js';
import { compareCodepoints, jsonObject, type JsonValue } from '../common/json.js';
import { KubocdError } from './errors.js';

/** Alias expansions allowed in one document (billion-laughs guard). */
const MAX_ALIAS_COUNT = 50;

/** What the messages call the text: `the YAML document` (a manifest) or `the rendered text`. */
export type YamlSubject = 'the YAML document' | 'the rendered text';

const UNCONVERTIBLE = Symbol('unconvertible');

/** A scalar key as sigs.k8s.io/yaml converts it to a JSON key, or UNCONVERTIBLE. */
function keyString(v: unknown): string | typeof UNCONVERTIBLE {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
    return String(v);
  }
  return UNCONVERTIBLE;
}

function collidingKeysMessage(subject: YamlSubject): string {
  return `${subject} has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"`;
}

export function unconvertibleKeyMessage(subject: YamlSubject): string {
  return `${subject} has a map key that cannot be converted to a string, such as null`;
}

/** Walks the syntax tree: rejects colliding and unconvertible keys, without quoting them. */
function checkKeys(node: unknown, subject: YamlSubject, depth: number): void {
  if (depth > 1000) throw new KubocdError(`${subject} is nested too deeply`, 'KUBOCD_YAML');
  if (isYamlMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key: unknown = pair.key;
      if (isAlias(key)) throw new KubocdError(unconvertibleKeyMessage(subject), 'KUBOCD_YAML');
      const k = isScalar(key) ? keyString(key.value) : UNCONVERTIBLE;
      if (k === UNCONVERTIBLE) throw new KubocdError(unconvertibleKeyMessage(subject), 'KUBOCD_YAML');
      if (seen.has(k)) throw new KubocdError(collidingKeysMessage(subject), 'KUBOCD_YAML');
      seen.add(k);
      checkKeys(pair.value, subject, depth + 1);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) checkKeys(item, subject, depth + 1);
  }
}

/** JS value from the YAML library → Go value after the JSON round trip. */
function toGo(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'bigint') return goFloat(Number(v));
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(toGo);
  if (v instanceof Set) return [...v].map(toGo);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) {
      const ks = keyString(k);
      // Merge keys (<<) can bring in keys already checked elsewhere; a non-string one is still refused.
      if (ks === UNCONVERTIBLE) throw new KubocdError('UNCONVERTIBLE', 'KUBOCD_YAML');
      mapSet(out, ks, toGo(x));
    }
    return out;
  }
  return null;
}

/**
 * Parses a YAML stream into Go data, one value per non-empty document.
 * Throws KubocdError (KUBOCD_YAML) located by line, never quoting the text.
 */
export function parseYamlDocuments(text: string, subject: YamlSubject): unknown[] {
  let docs;
  try {
    docs = parseAllDocuments(text, {
      version: '1.1',
      customTags: goYamlTags,
      prettyErrors: true,
      uniqueKeys: false,
    });
  } catch {
    throw new KubocdError(`${subject} is not valid YAML`, 'KUBOCD_YAML');
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  for (const d of list) {
    const err = d.errors[0];
    if (err) {
      const line = err.linePos?.[0]?.line;
      throw new KubocdError(
        `${subject} is not valid YAML${line !== undefined ? ` (line ${line})` : ''}`,
        'KUBOCD_YAML',
      );
    }
    checkKeys(d.contents, subject, 0);
    let js: unknown;
    try {
      js = d.toJS({ maxAliasCount: MAX_ALIAS_COUNT, mapAsMap: true });
    } catch {
      throw new KubocdError(`${subject} is not valid YAML (too many aliases)`, 'KUBOCD_YAML');
    }
    let v: unknown;
    try {
      v = toGo(js);
    } catch (e) {
      if (e instanceof KubocdError) throw new KubocdError(unconvertibleKeyMessage(subject), 'KUBOCD_YAML');
      throw e;
    }
    if (v !== null) out.push(v);
  }
  return out;
}

/** Parses one YAML document (an empty text is null). */
export function parseYaml(text: string, subject: YamlSubject): unknown {
  const docs = parseYamlDocuments(text, subject);
  if (docs.length > 1) throw new KubocdError(`${subject} holds more than one YAML document`, 'KUBOCD_YAML');
  return docs.length === 0 ? null : docs[0];
}

/** Go data (GoFloat, bigint) → plain JSON for output, with map keys in Go's sorted order. */
export function toJsonValue(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return jsonObject(
      Object.keys(o)
        .sort(compareCodepoints)
        .map((k) => [k, toJsonValue(o[k])] as const),
    );
  }
  return null;
}
