/**
 * The value model Go templates see (documented in README.md). Data is
 * JSON-like; Go's distinctions are kept only where templates can observe them:
 *  - `undefined` is Go's invalid reflect.Value ("no value": a missing map key);
 *  - `null` is a nil interface{} (a key present with a null value);
 *  - a JS number that is an integer is a Go `int`; a non-integer number is a
 *    `float64`; a float64 whose value is integral is wrapped in `GoFloat`;
 *  - arrays are `[]interface {}`, plain objects are `map[string]interface {}`
 *    (own properties only: data can never reach Object.prototype);
 *  - JS functions are Go funcs (usable with `call`);
 *  - `GoObject` instances are typed Go values with fields (e.g. semver).
 * Invariant: nothing here mutates data.
 */
import { utf8ByteLength } from '../common/utf8.js';

/** A float64 whose value happens to be integral (1.0), so it is not mistaken for an int. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/** A typed Go value with named fields or methods (e.g. *semver.Version). */
export abstract class GoObject {
  /** Go type name shown by %T and errors. */
  abstract goType(): string;
  /** Field or zero-argument method value, or `undefined` when there is none. */
  abstract field(name: string): unknown;
  /** How %v prints it. */
  abstract format(): string;
  /** For map-like Go types (e.g. Helm's `.Files`): entries that `range` and `len` see. */
  mapEntries?(): [string, unknown][];
}

/** Wraps a JS number computed as float64 so integral results stay floats. */
export function goFloat(n: number): number | GoFloat {
  return Number.isInteger(n) ? new GoFloat(n) : n;
}

export type Kind = 'invalid' | 'nil' | 'bool' | 'int' | 'float' | 'string' | 'slice' | 'map' | 'func' | 'object';

export function kindOf(v: unknown): Kind {
  if (v === undefined) return 'invalid';
  if (v === null) return 'nil';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'string':
      return 'string';
    case 'function':
      return 'func';
  }
  if (v instanceof GoFloat) return 'float';
  if (Array.isArray(v)) return 'slice';
  if (v instanceof GoObject) return 'object';
  if (v instanceof Uint8Array) return 'slice';
  return 'map';
}

/** Own-property check safe for any key. */
export function hasKey(map: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(map, key);
}

/** A map's value for key, or `undefined` when absent (never an inherited property). */
export function mapGet(map: Record<string, unknown>, key: string): unknown {
  return hasKey(map, key) ? map[key] : undefined;
}

/** Sets a key on a map, safe for `__proto__`. */
export function mapSet(map: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
  else map[key] = value;
}

export function isMap(v: unknown): v is Record<string, unknown> {
  return kindOf(v) === 'map';
}

/** The float value of an int or float. */
export function numberOf(v: unknown): number {
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'bigint') return Number(v);
  return v as number;
}

/** Go's %T / reflect type name. Arrays tagged by tagType report their tag. */
export function typeName(v: unknown): string {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return '<nil>';
    case 'bool':
      return 'bool';
    case 'int':
      return typeof v === 'bigint' ? 'int64' : 'int';
    case 'float':
      return 'float64';
    case 'string':
      return 'string';
    case 'slice':
      if (v instanceof Uint8Array) return '[]uint8';
      return sliceTypes.get(v as object) ?? '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    case 'func':
      return 'func(...interface {}) (interface {}, error)';
    case 'object':
      return (v as GoObject).goType();
  }
}

const sliceTypes = new WeakMap<object, string>();

/** Records that an array is a typed Go slice such as `[]string` (for %T and typeOf only). */
export function tagType<T extends object>(arr: T, goType: string): T {
  sliceTypes.set(arr, goType);
  return arr;
}

const sliceMethods = new WeakMap<object, Record<string, (...a: unknown[]) => unknown>>();

/**
 * Gives a slice the methods of a named slice type (Helm's `chartutil.VersionSet` is a `[]string`
 * with `Has`): templates range over it, take its len and index it like any slice, and
 * `.APIVersions.Has "x"` finds the method, as Go finds methods of named types.
 */
export function withMethods<T extends unknown[]>(arr: T, methods: Record<string, (...a: unknown[]) => unknown>): T {
  sliceMethods.set(arr, methods);
  return arr;
}

/** The method `name` of a slice given methods by withMethods, if any. */
export function sliceMethod(arr: object, name: string): ((...a: unknown[]) => unknown) | undefined {
  const methods = sliceMethods.get(arr);
  return methods && hasKey(methods, name) ? methods[name] : undefined;
}

/** Go's isTrue: the second result is false when the value has no truth (never for our kinds). */
export function isTrue(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return false;
    case 'bool':
      return v as boolean;
    case 'int':
    case 'float':
      return numberOf(v) !== 0;
    case 'string':
      return (v as string).length > 0;
    case 'slice':
      return (v as ArrayLike<unknown>).length > 0;
    case 'map':
      return Object.keys(v as object).length > 0;
    case 'func':
    case 'object':
      return true;
  }
}

const utf8 = new TextEncoder();

/** Go string length: bytes of the UTF-8 encoding. */
export const byteLength = utf8ByteLength;

export function utf8Bytes(s: string): Uint8Array {
  return utf8.encode(s);
}

const utf8Decoder = new TextDecoder('utf-8');

function fromUtf8(b: Uint8Array): string {
  return utf8Decoder.decode(b);
}

/** A Go string slice s[i:j] in bytes; cutting a rune in half yields U+FFFD as Go's later printing would. */
export function byteSlice(s: string, i: number, j: number): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s.slice(i, j);
  return fromUtf8(utf8Bytes(s).subarray(i, j));
}
