/**
 * YAML output as Helm's toYaml produces it: sigs.k8s.io/yaml.Marshal, i.e.
 * the value goes through encoding/json (so integral floats become ints and
 * GoObjects their JSON form), is read back by its go-yaml v2 fork (numbers
 * typed from their JSON text) and written by go-yaml v2's emitter, shared
 * with kubecfg's output in lang/go/yaml-v2-emit (key order without kubecfg's
 * digit-run fix, as yaml.v2 v2.4). This file only does the JSON round trip.
 * Throws on values JSON cannot encode (NaN, functions, nesting past 10000).
 */

import { marshalYaml as emitGoYaml, type YamlValue } from '../../go/yaml-v2-emit/index.js';
import { jsonFloat } from '../sprig/encoding.js';
import { GoObject, kindOf, mapSet, numberOf } from '../value.js';
import { formatFloat } from '../../go/strconv.js';

const MAX_JSON_DEPTH = 10000;
const INT64_MIN = -(1n << 63n);
const UINT64_LIMIT = 1n << 64n;

/** A float64 as its JSON text reads back in go-yaml: an int when the text is one that fits, else a float. */
function floatValue(f: number): YamlValue {
  const json = jsonFloat(f);
  if (/^-?\d+$/.test(json)) {
    const b = BigInt(json);
    if (b >= INT64_MIN && b < UINT64_LIMIT) return b;
  }
  return Number(json);
}

/** The value after Go's JSON round trip. */
function toYamlValue(v: unknown, depth: number): YamlValue {
  if (depth > MAX_JSON_DEPTH) throw new Error('json: exceeded max depth');
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return null;
    case 'bool':
      return v as boolean;
    case 'int':
      return typeof v === 'bigint' ? v : BigInt(v as number);
    case 'float':
      return floatValue(numberOf(v));
    case 'string':
      return v as string;
    case 'slice':
      if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
      return (v as unknown[]).map((x) => toYamlValue(x, depth + 1));
    case 'map': {
      const m = v as Record<string, unknown>;
      const out: { [key: string]: YamlValue } = {};
      for (const k of Object.keys(m)) mapSet(out, k, toYamlValue(m[k], depth + 1));
      return out;
    }
    case 'object': {
      const j = (v as GoObject & { toJSONValue?: () => unknown }).toJSONValue;
      return j ? toYamlValue(j.call(v), depth + 1) : {};
    }
    default:
      throw new Error('json: unsupported type: func(...interface {}) (interface {}, error)');
  }
}

const HELM_YAML = { numberText: (n: number) => formatFloat(n, 'g', -1), digitRunFix: false } as const;

/** yaml.Marshal output (with its trailing newline). Throws on values JSON cannot encode. */
export function marshalYaml(v: unknown): string {
  const value = toYamlValue(v, 0);
  try {
    return emitGoYaml(value, HELM_YAML);
  } catch (e) {
    if (e instanceof RangeError) throw new Error('yaml: value nested too deeply to write');
    throw e;
  }
}
