/**
 * The values go-yaml v2 decodes into interface{}: nil, bool, string, int
 * (int64, or uint64 past int64's range; both held as bigint), float64 (a JS
 * number), []interface{} and map[interface{}]interface{} (GoMap). Keeping
 * ints and floats apart is what lets callers stringify keys and print
 * messages as Go does (`1` and `1.0` are different keys).
 */

import { formatFloat, quote } from '../strconv.js';

export type GoValue = null | boolean | string | bigint | number | GoValue[] | GoMap;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * map[interface{}]interface{}: Go's key equality (same dynamic type and
 * value; NaN never equals itself), entries kept in the order first set.
 */
export class GoMap {
  readonly keys: GoValue[] = [];
  readonly values: GoValue[] = [];
  private readonly index = new Map<string, number>();

  private static id(k: GoValue): string | undefined {
    if (k === null) return 'n';
    switch (typeof k) {
      case 'string':
        return 's' + k;
      case 'boolean':
        return k ? 'T' : 'F';
      case 'bigint':
        return (k > INT64_MAX ? 'u' : 'i') + k.toString();
      case 'number':
        return Number.isNaN(k) ? undefined : 'f' + String(k === 0 ? 0 : k);
      default:
        return undefined;
    }
  }

  has(k: GoValue): boolean {
    const id = GoMap.id(k);
    return id !== undefined && this.index.has(id);
  }

  /** Sets k; returns false when k was already there (its value is replaced). */
  set(k: GoValue, v: GoValue): boolean {
    const id = GoMap.id(k);
    const at = id === undefined ? undefined : this.index.get(id);
    if (at !== undefined) {
      this.values[at] = v;
      return false;
    }
    if (id !== undefined) this.index.set(id, this.keys.length);
    this.keys.push(k);
    this.values.push(v);
    return true;
  }

  get size(): number {
    return this.keys.length;
  }
}

/** The Go type name `reflect.TypeOf(v)` prints for a decoded value. */
export function goTypeOf(v: GoValue): string {
  if (v === null) return '%!s(<nil>)';
  if (v instanceof GoMap) return 'map[interface {}]interface {}';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return v > INT64_MAX ? 'uint64' : 'int';
    default:
      return 'float64';
  }
}

/**
 * fmt's %#v of a decoded value: a nil interface is `<nil>` alone and
 * `interface {}(nil)` inside a container; map keys of one type are sorted (Go
 * orders mixed types by type address, we by kind).
 */
export function goSharpV(v: GoValue, nested = false): string {
  if (v === null) return nested ? 'interface {}(nil)' : '<nil>';
  if (v instanceof GoMap) {
    const pairs = v.keys.map((k, i) => [k, v.values[i]!] as const);
    pairs.sort(([a], [b]) => compareKeys(a, b));
    const body = pairs.map(([k, x]) => `${goSharpV(k, true)}:${goSharpV(x, true)}`).join(', ');
    return `map[interface {}]interface {}{${body}}`;
  }
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  switch (typeof v) {
    case 'string':
      return quote(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v > INT64_MAX ? '0x' + v.toString(16) : v.toString();
    default:
      return formatFloat(v, 'g', -1, 64);
  }
}

const KIND_ORDER = ['boolean', 'bigint', 'number', 'string'];

function compareKeys(a: GoValue, b: GoValue): number {
  const ka = KIND_ORDER.indexOf(typeof a);
  const kb = KIND_ORDER.indexOf(typeof b);
  if (ka !== kb) return ka - kb;
  if (a === null || b === null) return 0;
  return a < b ? -1 : a > b ? 1 : 0;
}
