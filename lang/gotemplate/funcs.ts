/**
 * Go's predefined template functions (text/template funcs.go): and, or, not,
 * len, index, slice, eq, ne, lt, le, gt, ge, print, printf, println, html,
 * js, urlquery, call. Comparison follows Go's basic-kind rules: int and
 * float64 never compare ("incompatible types for comparison"), a missing
 * value equals only another missing value, lists and maps are not comparable.
 */

import { compareCodepoints } from '../common/json.js';
import { formatValue, sprint, sprintf, sprintln } from './fmt/print.js';
import { isPrint } from '../go/strconv.js';
import { type FuncDef, FunctionProfile, pure } from './function.js';
import { byteLength, byteSlice, type GoObject, kindOf, numberOf, typeName, utf8Bytes } from './value.js';

/** Go's indirectInterface: a nil interface is no value. */
function ind(v: unknown): unknown {
  return v === null ? undefined : v;
}

type BasicKind = 'invalid' | 'bool' | 'int' | 'float' | 'string';

function basicKind(v: unknown): { kind: BasicKind; bad: boolean } {
  const k = kindOf(v);
  if (k === 'bool' || k === 'int' || k === 'float' || k === 'string') return { kind: k, bad: false };
  return { kind: 'invalid', bad: true };
}

const errBadComparisonType = 'invalid type for comparison';
const errBadComparison = 'incompatible types for comparison';

function cmpBasic(kind: BasicKind, a: unknown, b: unknown): number {
  switch (kind) {
    case 'string':
      return compareCodepoints(a as string, b as string);
    case 'int': {
      if (typeof a === 'bigint' || typeof b === 'bigint') {
        const x = BigInt(a as number | bigint);
        const y = BigInt(b as number | bigint);
        return x < y ? -1 : x > y ? 1 : 0;
      }
      return (a as number) - (b as number);
    }
    case 'float': {
      const x = numberOf(a);
      const y = numberOf(b);
      return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
    }
    case 'bool':
      return a === b ? 0 : 1;
    default:
      return NaN;
  }
}

function eq(arg1: unknown, ...arg2: unknown[]): boolean {
  const a1 = ind(arg1);
  if (arg2.length === 0) throw new Error('missing argument for comparison');
  const k1 = basicKind(a1).kind;
  for (const raw of arg2) {
    const a = ind(raw);
    const k2 = basicKind(a).kind;
    let truth = false;
    if (k1 !== k2) {
      if (a1 !== undefined && a !== undefined) throw new Error(errBadComparison);
    } else if (k1 !== 'invalid') {
      truth = cmpBasic(k1, a1, a) === 0;
    } else {
      const c1 = kindOf(a1);
      const c2 = kindOf(a);
      if (c1 !== c2 && a1 !== undefined && a !== undefined) {
        throw new Error(`non-comparable types ${formatValue(a1)}: ${typeName(a1)}, ${typeName(a)}: ${formatValue(a)}`);
      }
      if (a1 === undefined || a === undefined) truth = a1 === a;
      else if (c2 === 'slice' || c2 === 'map') throw new Error(`non-comparable type ${formatValue(a)}: ${typeName(a)}`);
      else truth = a1 === a;
    }
    if (truth) return true;
  }
  return false;
}

function lt(arg1: unknown, arg2: unknown): boolean {
  const a1 = ind(arg1);
  const b1 = basicKind(a1);
  if (b1.bad) throw new Error(errBadComparisonType);
  const a2 = ind(arg2);
  const b2 = basicKind(a2);
  if (b2.bad) throw new Error(errBadComparisonType);
  if (b1.kind !== b2.kind) throw new Error(errBadComparison);
  if (b1.kind === 'bool') throw new Error(errBadComparisonType);
  return cmpBasic(b1.kind, a1, a2) < 0;
}

function le(arg1: unknown, arg2: unknown): boolean {
  return lt(arg1, arg2) || eq(arg1, arg2);
}

function length(item: unknown): number {
  if (item === undefined) throw new Error('reflect: call of reflect.Value.Type on zero Value');
  if (item === null) throw new Error('len of nil pointer');
  switch (kindOf(item)) {
    case 'string':
      return byteLength(item as string);
    case 'slice':
      return (item as ArrayLike<unknown>).length;
    case 'map':
      return Object.keys(item).length;
    case 'object': {
      const entries = (item as GoObject).mapEntries?.();
      if (entries) return entries.length;
    }
  }
  throw new Error(`len of type ${typeName(item)}`);
}

function indexArg(index: unknown, cap: number): number {
  const k = kindOf(index);
  if (k === 'invalid' || k === 'nil') throw new Error('cannot index slice/array with nil');
  if (k !== 'int') throw new Error(`cannot index slice/array with type ${typeName(index)}`);
  const x = Number(index);
  if (x < 0 || x > cap) throw new Error(`index out of range: ${index}`);
  return x;
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  let cur = ind(item);
  if (cur === undefined) throw new Error('index of untyped nil');
  for (const raw of indexes) {
    const idx = ind(raw);
    if (cur === null) throw new Error('index of nil pointer');
    switch (kindOf(cur)) {
      case 'string': {
        const s = cur as string;
        const bytes = utf8Bytes(s);
        const x = indexArg(idx, bytes.length);
        if (x === bytes.length) throw new Error('reflect: string index out of range');
        cur = bytes[x];
        break;
      }
      case 'slice': {
        const arr = cur as ArrayLike<unknown>;
        const x = indexArg(idx, arr.length);
        if (x === arr.length) throw new Error('reflect: slice index out of range');
        cur = arr[x];
        break;
      }
      case 'map': {
        if (idx === undefined) throw new Error('value is nil; should be of type string');
        if (typeof idx !== 'string') throw new Error(`value has type ${typeName(idx)}; should be string`);
        const m = cur as Record<string, unknown>;
        cur = Object.prototype.hasOwnProperty.call(m, idx) ? m[idx] : null;
        break;
      }
      default:
        throw new Error(`can't index item of type ${typeName(cur)}`);
    }
  }
  return cur;
}

function slice(item: unknown, ...indexes: unknown[]): unknown {
  const it = ind(item);
  if (it === undefined) throw new Error('slice of untyped nil');
  if (indexes.length > 3) throw new Error(`too many slice indexes: ${indexes.length}`);
  let len: number;
  const k = kindOf(it);
  if (k === 'string') {
    if (indexes.length === 3) throw new Error('cannot 3-index slice a string');
    len = byteLength(it as string);
  } else if (k === 'slice') len = (it as unknown[]).length;
  else throw new Error(`can't slice item of type ${typeName(it)}`);
  const idx = [0, len, len];
  indexes.forEach((x, i) => (idx[i] = indexArg(ind(x), len)));
  if (idx[0]! > idx[1]!) throw new Error(`invalid slice index: ${idx[0]} > ${idx[1]}`);
  if (indexes.length === 3 && idx[1]! > idx[2]!) throw new Error(`invalid slice index: ${idx[1]} > ${idx[2]}`);
  if (k === 'string') return byteSlice(it as string, idx[0]!, idx[1]!);
  return (it as unknown[]).slice(idx[0], idx[1]);
}

/** Go's evalArgs for html/js/urlquery: one string as is, otherwise Sprint with nil as <no value>. */
function evalArgs(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

function htmlEscape(s: string): string {
  return s.replace(/["'&<>\0]/g, (c) => {
    switch (c) {
      case '"':
        return '&#34;';
      case "'":
        return '&#39;';
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      default:
        return '\uFFFD';
    }
  });
}

function jsEscape(s: string): string {
  let out = '';
  for (const ch of s) {
    const r = ch.codePointAt(0)!;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (r < 0x20) out += '\\u00' + r.toString(16).toUpperCase().padStart(2, '0');
    else if (r < 0x80 || isPrint(r)) out += ch;
    else out += '\\u' + r.toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

/** url.QueryEscape. */
function queryEscape(s: string): string {
  let out = '';
  for (const b of utf8Bytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function call(fn: unknown, ...args: unknown[]): unknown {
  const f = ind(fn);
  if (f === undefined) throw new Error('call of nil');
  if (typeof f !== 'function') throw new Error(`non-function of type ${typeName(f)}`);
  return (f as (...a: unknown[]) => unknown)(...args.map((a) => (a === undefined ? null : a)));
}

const raw = (d: FuncDef): FuncDef => ({ ...d, raw: true });

/** The builtin function table every template has. */
export const builtinFuncs: Record<string, FuncDef> = {
  and: { params: ['value'], variadic: 'value', impl: () => undefined, raw: true, shortCircuit: 'and' },
  or: { params: ['value'], variadic: 'value', impl: () => undefined, raw: true, shortCircuit: 'or' },
  not: pure(['value'], (a: unknown) => !isTruthy(a)),
  len: pure(['value'], length),
  index: raw(pure(['value'], index, 'value')),
  slice: raw(pure(['value'], slice, 'value')),
  eq: pure(['value'], eq, 'value'),
  ne: pure(['value', 'value'], (a: unknown, b: unknown) => !eq(a, b)),
  lt: pure(['value', 'value'], lt),
  le: pure(['value', 'value'], le),
  gt: pure(['value', 'value'], (a: unknown, b: unknown) => !le(a, b)),
  ge: pure(['value', 'value'], (a: unknown, b: unknown) => !lt(a, b)),
  print: pure([], (...a: unknown[]) => sprint(a), 'any'),
  printf: pure(['string'], (f: string, ...a: unknown[]) => sprintf(f, a), 'any'),
  println: pure([], (...a: unknown[]) => sprintln(a), 'any'),
  html: pure([], (...a: unknown[]) => htmlEscape(evalArgs(a)), 'any'),
  js: pure([], (...a: unknown[]) => jsEscape(evalArgs(a)), 'any'),
  urlquery: pure([], (...a: unknown[]) => queryEscape(evalArgs(a)), 'any'),
  call: raw(pure(['value'], call, 'value')),
};

function isTruthy(v: unknown): boolean {
  const k = kindOf(v);
  if (k === 'invalid' || k === 'nil') return false;
  if (k === 'bool') return v as boolean;
  if (k === 'int' || k === 'float') return numberOf(v) !== 0;
  if (k === 'string' || k === 'slice') return (v as ArrayLike<unknown>).length > 0;
  if (k === 'map') return Object.keys(v as object).length > 0;
  return true;
}

export const builtinProfile = new FunctionProfile(builtinFuncs);
