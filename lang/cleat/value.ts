/**
 * Runtime values. A Cleat value is exactly JSON, with the number split the
 * language needs: Int is a 64-bit bigint, Float a finite JS number. Objects
 * are ObjectValue (a Map), because object keys keep their order and a JS
 * object would move integer-like keys to the front.
 */
import { jsonObject, type JsonValue } from '../common/json.js';

export type Value = null | boolean | bigint | number | string | Value[] | ObjectValue;

export class ObjectValue {
  constructor(readonly fields: Map<string, Value> = new Map()) {}
  get(key: string): Value | undefined {
    return this.fields.get(key);
  }
  has(key: string): boolean {
    return this.fields.has(key);
  }
}

export const INT_MIN = -(1n << 63n);
export const INT_MAX = (1n << 63n) - 1n;

export function isObject(v: Value | undefined): v is ObjectValue {
  return v instanceof ObjectValue;
}

export function kindOf(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'Bool';
  if (typeof v === 'bigint') return 'Int';
  if (typeof v === 'number') return 'Float';
  if (typeof v === 'string') return 'Str';
  if (Array.isArray(v)) return 'list';
  return 'object';
}

/** Structural equality; Int and Float compare by numeric value (1 == 1.0). */
export function valueEquals(a: Value, b: Value): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return typeof a === typeof b
      ? a === b
      : Number(a) === Number(b) && (typeof a === 'bigint' ? a === BigInt(b) : BigInt(a) === b);
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => valueEquals(x, b[i]!));
  if (isObject(a)) {
    if (!isObject(b) || a.fields.size !== b.fields.size) return false;
    for (const [k, v] of a.fields) {
      const w = b.fields.get(k);
      if (w === undefined || !valueEquals(v, w)) return false;
    }
    return true;
  }
  return a === b;
}

/**
 * Converts to plain JSON for callers. Ints beyond 2^53 lose precision in a JS
 * number; use the serializers in serialize.ts for exact text.
 */
export function toJsonValue(v: Value): JsonValue {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(toJsonValue);
  if (isObject(v)) return jsonObject([...v.fields].map(([k, x]) => [k, toJsonValue(x)] as const));
  return v;
}

/** From plain JSON: integral numbers become Int, the rest Float. */
export function fromJsonValue(v: JsonValue): Value {
  if (typeof v === 'number') return Number.isInteger(v) && Number.isSafeInteger(v) ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map(fromJsonValue);
  if (v !== null && typeof v === 'object')
    return new ObjectValue(new Map(Object.keys(v).map((k) => [k, fromJsonValue(v[k]!)])));
  return v;
}

/** A short rendering of a value for error messages. */
export function showValue(v: Value, max = 60): string {
  const s = render(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function render(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(render).join(', ')}]`;
  return `{ ${[...v.fields].map(([k, x]) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k)}: ${render(x)}`).join(', ')} }`;
}
