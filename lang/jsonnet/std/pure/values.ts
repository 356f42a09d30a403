/**
 * Small helpers shared by the pure std functions: Jsonnet type names, the
 * type-check errors go-jsonnet's native builtins raise, and code point views
 * of strings. Invariant: Jsonnet strings are sequences of code points, so every
 * length/index here counts code points, never UTF-16 units.
 */
import type { JsonObject, JsonValue } from '../../../common/json.js';
import { isJsonObject } from '../../../common/json.js';
import { StdError } from './std-error.js';
import { formatFloat } from '../../../go/strconv.js';

export type JsonnetType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

export function typeName(v: JsonValue): JsonnetType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      return 'object';
  }
}

/** go-jsonnet's typeErrorSpecific: "Unexpected type number, expected string". */
export function expectedTypeError(v: JsonValue, expected: JsonnetType): StdError {
  return new StdError(`Unexpected type ${typeName(v)}, expected ${expected}`);
}

export function wantString(v: JsonValue): string {
  if (typeof v !== 'string') throw expectedTypeError(v, 'string');
  return v;
}

export function wantNumber(v: JsonValue): number {
  if (typeof v !== 'number') throw expectedTypeError(v, 'number');
  return v;
}

export function wantBoolean(v: JsonValue): boolean {
  if (typeof v !== 'boolean') throw expectedTypeError(v, 'boolean');
  return v;
}

export function wantArray(v: JsonValue): JsonValue[] {
  if (!Array.isArray(v)) throw expectedTypeError(v, 'array');
  return v;
}

export function wantObject(v: JsonValue): JsonObject {
  if (!isJsonObject(v)) throw expectedTypeError(v, 'object');
  return v;
}

/**
 * go-jsonnet's getInt: a number that survives a round trip through int32
 * (it converts conservatively so indexes fit a machine int).
 */
export function wantInt(v: JsonValue): number {
  const n = wantNumber(v);
  if (!isInt32(n)) throw new StdError(`Expected an integer, but got ${formatFloat(n, 'g', -1)}`);
  return n;
}

export function isInt32(n: number): boolean {
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

/** The code points of a string, one string each (astral characters stay whole). */
export function codePoints(s: string): string[] {
  return Array.from(s);
}

/** Number of code points (cheap when the string has no surrogates). */
export function cpLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** std.length semantics for the data types (functions are not ours). */
export function jsonnetLength(v: JsonValue): number {
  if (typeof v === 'string') return cpLength(v);
  if (Array.isArray(v)) return v.length;
  if (isJsonObject(v)) return Object.keys(v).length;
  throw new StdError(`Unexpected type ${typeName(v)}`);
}

/** Deep equality as Jsonnet's == on manifested data. */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i]!, b[i]!)) return false;
    return true;
  }
  if (isJsonObject(a)) {
    if (!isJsonObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k) || !jsonEquals(a[k]!, b[k]!)) return false;
    }
    return true;
  }
  return false;
}

/** Own-property lookup that never reaches Object.prototype. */
export function getField(obj: JsonObject, key: string): JsonValue | undefined {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}
