/**
 * YAML as KuboCD reads it (go-yaml v2 through sigs.k8s.io/yaml, lang/go/yaml-v2):
 * every number a float64 after the JSON round trip (integral ones as GoFloat),
 * map keys converted to strings. A map whose keys collide once converted
 * (`1` and "1", `true` and "true", or a repeated key; Go would keep one at
 * random), or with a key that has no string form (null, a list, a map), is an
 * error. Messages name neither keys nor values, and an invalid document is
 * located by its line only.
 */

import { GoYamlError, goYamlToJson, unmarshalYamlStream } from '../go/yaml-v2.js';
import { GoFloat, jsonToGoData } from '../gotemplate/index.js';
import { compareCodepoints, jsonObject, type JsonValue } from '../common/json.js';
import { KubocdError } from './errors.js';

/** What the messages call the text: `the YAML document` (a manifest) or `the rendered text`. */
export type YamlSubject = 'the YAML document' | 'the rendered text';

function collidingKeysMessage(subject: YamlSubject): string {
  return `${subject} has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"`;
}

export function unconvertibleKeyMessage(subject: YamlSubject): string {
  return `${subject} has a map key that cannot be converted to a string, such as null`;
}

/** go-yaml's failure in KuboCD's words: the kind of fault and a line, never the text. */
function yamlFailure(e: GoYamlError, subject: YamlSubject): KubocdError {
  if (e.message.startsWith('yaml: invalid map key'))
    return new KubocdError(unconvertibleKeyMessage(subject), 'KUBOCD_YAML');
  switch (e.kind) {
    case 'key-collision':
      return new KubocdError(collidingKeysMessage(subject), 'KUBOCD_YAML');
    case 'unconvertible-key':
      return new KubocdError(unconvertibleKeyMessage(subject), 'KUBOCD_YAML');
    case 'aliasing':
      return new KubocdError(`${subject} is not valid YAML (too many aliases)`, 'KUBOCD_YAML');
    case 'depth':
      return new KubocdError(`${subject} is nested too deeply`, 'KUBOCD_YAML');
    default:
      return new KubocdError(
        `${subject} is not valid YAML${e.line !== undefined ? ` (line ${e.line})` : ''}`,
        'KUBOCD_YAML',
      );
  }
}

/**
 * Parses a YAML stream into Go data, one value per non-empty document.
 * Throws KubocdError (KUBOCD_YAML) located by line, never quoting the text.
 */
export function parseYamlDocuments(text: string, subject: YamlSubject): unknown[] {
  try {
    return unmarshalYamlStream(text, { duplicateKeys: 'collision' })
      .filter((d) => d !== null)
      .map((d) => jsonToGoData(goYamlToJson(d, { keyCollisions: 'error' })));
  } catch (e) {
    if (e instanceof GoYamlError) throw yamlFailure(e, subject);
    throw e;
  }
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
