/**
 * Conversions Sprig applies to its interface{} arguments: strval (Go's %v
 * unless already a string), spf13/cast's ToInt64/ToFloat64 (strings parsed
 * with Go's base-0 integer syntax, floats truncated, bool → 1/0, anything else
 * → 0), Sprig's `empty`, and strslice. Also the typeOf/kindOf/deepEqual family.
 */

import { formatValue } from '../fmt/print.js';
import { type FuncDef, pure } from '../function.js';
import { strconvParseFloat, strconvParseInt } from '../../go/strconv.js';
import { GoObject, goFloat, kindOf, numberOf, tagType, typeName } from '../value.js';

export function strval(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  return formatValue(v === undefined ? null : v);
}

function trimZeroDecimal(s: string): string {
  const m = /^([^.]*)\.0*$/.exec(s);
  return m && m[1] !== '' ? m[1]! : s;
}

/** spf13/cast ToInt64 (errors become 0). */
export function toInt64(v: unknown): number {
  switch (kindOf(v)) {
    case 'int':
      return Number(v);
    case 'float': {
      const f = numberOf(v);
      return Number.isFinite(f) ? Math.trunc(f) : 0;
    }
    case 'string': {
      const i = strconvParseInt(trimZeroDecimal(v as string), true);
      return i === null ? 0 : Number(i);
    }
    case 'bool':
      return v ? 1 : 0;
  }
  return 0;
}

/** spf13/cast ToFloat64 (errors become 0). */
export function toFloat64(v: unknown): number {
  switch (kindOf(v)) {
    case 'int':
    case 'float':
      return numberOf(v);
    case 'string': {
      const f = strconvParseFloat(v as string);
      if (f !== null) return f;
      const i = strconvParseInt(v as string, true);
      return i === null ? 0 : Number(i);
    }
    case 'bool':
      return v ? 1 : 0;
  }
  return 0;
}

/** Sprig's empty: Go's zero value test. */
export function isEmpty(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return true;
    case 'bool':
      return !v;
    case 'int':
    case 'float':
      return numberOf(v) === 0;
    case 'string':
    case 'slice':
      return (v as ArrayLike<unknown>).length === 0;
    case 'map':
      return Object.keys(v as object).length === 0;
  }
  return false;
}

/** Sprig's strslice: a list's non-nil elements as strings, or [strval(v)]. */
export function strslice(v: unknown): string[] {
  if (Array.isArray(v)) return tagType(v.filter((x) => x !== null && x !== undefined).map(strval), '[]string');
  if (v === null || v === undefined) return tagType([], '[]string');
  return tagType([strval(v)], '[]string');
}

function kindName(v: unknown): string {
  switch (kindOf(v)) {
    case 'invalid':
    case 'nil':
      return 'invalid';
    case 'int':
      return typeof v === 'bigint' ? 'int64' : 'int';
    case 'float':
      return 'float64';
    case 'object':
      return (v as GoObject).goType().startsWith('*') ? 'ptr' : 'struct';
    default:
      return kindOf(v);
  }
}

/** reflect.DeepEqual over the value model. */
export function deepEqual(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  if (typeName(a) !== typeName(b)) return false;
  switch (ka) {
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((e, i) => deepEqual(e, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      return (
        kx.length === Object.keys(y).length &&
        kx.every((k) => Object.prototype.hasOwnProperty.call(y, k) && deepEqual(x[k], y[k]))
      );
    }
    case 'float':
      return numberOf(a) === numberOf(b);
    case 'int':
      return BigInt(a as number) === BigInt(b as number);
    case 'object':
      return a === b || (a as GoObject).format() === (b as GoObject).format();
    default:
      return a === b || (a == null && b == null);
  }
}

/** copystructure.Copy: a deep copy of lists and maps. */
function deepCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (kindOf(v) === 'map') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as object)) {
      if (k === '__proto__')
        Object.defineProperty(out, k, { value: deepCopy(x), enumerable: true, writable: true, configurable: true });
      else out[k] = deepCopy(x);
    }
    return out;
  }
  return v;
}

export const conversionFuncs: Record<string, FuncDef> = {
  toString: pure(['any'], strval),
  toStrings: pure(['any'], strslice),
  atoi: pure(['string'], (s: string) => {
    const t = /^[+-]?\d+$/.test(s) ? Number(s) : 0;
    return Number.isSafeInteger(t) ? t : 0;
  }),
  int: pure(['any'], toInt64),
  int64: pure(['any'], toInt64),
  float64: pure(['any'], (v: unknown) => goFloat(toFloat64(v))),
  toDecimal: pure(['any'], (v: unknown) => {
    const s = strval(v);
    return /^[+-]?[0-7]+$/.test(s) ? parseInt(s, 8) : 0;
  }),
  typeOf: pure(['any'], (v: unknown) => typeName(v)),
  typeIs: pure(['string', 'any'], (t: string, v: unknown) => t === typeName(v)),
  typeIsLike: pure(['string', 'any'], (t: string, v: unknown) => {
    const s = typeName(v);
    return t === s || '*' + t === s;
  }),
  kindOf: pure(['any'], kindName),
  kindIs: pure(['string', 'any'], (t: string, v: unknown) => t === kindName(v)),
  deepEqual: pure(['any', 'any'], deepEqual),
  deepCopy: pure(['any'], deepCopy),
  mustDeepCopy: pure(['any'], deepCopy),
};
