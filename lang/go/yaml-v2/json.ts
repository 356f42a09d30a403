/**
 * sigs.k8s.io/yaml's YAML-to-JSON step (convertToJSONableObject, then
 * json.Marshal): map keys become strings (ints in decimal, floats as
 * FormatFloat(f, 'g', -1, 32) with .inf/-.inf/.nan, bools as true/false;
 * nil and uint64 keys are "Unsupported map key"), ints and floats become JSON
 * numbers, and a non-finite float is json.Marshal's "unsupported value".
 * Two keys that become the same string (`1` and "1") are resolved by Go's
 * random map order; we keep the later one, or with keyCollisions: 'error'
 * (KuboCD) refuse the document.
 */

import { jsonObject, type JsonValue } from '../../common/json.js';
import { formatFloat } from '../strconv.js';
import { GoYamlError } from './errors.js';
import { GoMap, goSharpV, goTypeOf, type GoValue } from './value.js';

const INT64_MAX = 2n ** 63n - 1n;

/** A key as sigs.k8s.io/yaml writes it into JSON; undefined for the types it refuses (nil, uint64). */
export function jsonKeyString(k: GoValue): string | undefined {
  switch (typeof k) {
    case 'string':
      return k;
    case 'boolean':
      return k ? 'true' : 'false';
    case 'bigint':
      return k > INT64_MAX ? undefined : k.toString();
    case 'number': {
      const s = formatFloat(k, 'g', -1, 32);
      return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
    }
    default:
      return undefined;
  }
}

export interface JsonOptions {
  keyCollisions?: 'last' | 'error';
}

/** The JSON value sigs.k8s.io/yaml makes of a decoded document. */
export function goYamlToJson(v: GoValue, options: JsonOptions = {}): JsonValue {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v;
    throw new GoYamlError(`json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`, 'json');
  }
  if (Array.isArray(v)) return v.map((x) => goYamlToJson(x, options));
  const entries: [string, JsonValue][] = [];
  const seen = new Set<string>();
  v.keys.forEach((k, i) => {
    const value = v.values[i]!;
    const key = jsonKeyString(k);
    if (key === undefined)
      throw new GoYamlError(
        `Unsupported map key of type: ${goTypeOf(k)}, key: ${goSharpV(k)}, value: ${goSharpV(value)}`,
        'unconvertible-key',
      );
    if (seen.has(key) && options.keyCollisions === 'error')
      throw new GoYamlError(`map keys collide once converted to strings: ${goSharpV(key)}`, 'key-collision');
    seen.add(key);
    entries.push([key, goYamlToJson(value, options)]);
  });
  return jsonObject(entries);
}

export { GoMap };
