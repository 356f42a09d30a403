/**
 * The built-in functions of spec §5.5, each declared once with its static
 * typing rule and its implementation. Static rules get the argument types and
 * return the result type or a message; implementations get checked values and
 * report failures through `fail` (which throws a located CleatError).
 * All built-ins are pure and total on well-typed input, except `error`.
 */
import { CleatCodes, type CleatCode } from './diagnostics.js';
import { wellFormed } from '../common/well-formed.js';
import { compileRe2 } from './re2.js';
import { floatText, toJsonText, toYamlText } from './serialize.js';
import { baseOf, isSubtype, showType, T, union, type Ty } from './types.js';
import { isObject, kindOf, valueEquals, type Value } from './value.js';

export interface BuiltinContext {
  fail(code: CleatCode, message: string): never;
}

export interface Builtin {
  name: string;
  arity: [min: number, max: number];
  /** The result type, or why these argument types are rejected. */
  type(args: Ty[]): Ty | string;
  run(args: Value[], ctx: BuiltinContext): Value;
}

/** An argument is accepted statically when it is a subtype, or Json (checked when it runs). */
function fits(t: Ty, want: Ty): boolean {
  const b = baseOf(t);
  return b.k === 'json' || isSubtype(t, want);
}

function expectArgs(args: Ty[], wants: Ty[], result: Ty): Ty | string {
  for (let i = 0; i < wants.length && i < args.length; i++) {
    if (!fits(args[i]!, wants[i]!))
      return `argument ${i + 1} must be ${showType(wants[i]!)}, found ${showType(args[i]!)}`;
  }
  return result;
}

const STRS = T.list(T.str);

function str(v: Value): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'number') return floatText(v);
  return toJsonText(v, 0);
}

function elemType(t: Ty): Ty | undefined {
  const b = baseOf(t);
  if (b.k === 'list') return b.elem;
  if (b.k === 'tuple') return union(b.elems);
  if (b.k === 'json') return T.json;
  return undefined;
}

function numeric(args: Value[], ctx: BuiltinContext, pick: (a: number, b: number) => boolean): Value {
  const xs = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (xs.length === 0) ctx.fail(CleatCodes.RUNTIME, 'min/max of an empty list');
  let best = xs[0]!;
  for (const x of xs) {
    if (typeof x !== 'bigint' && typeof x !== 'number')
      ctx.fail(CleatCodes.TYPE_MISMATCH, `min/max expects numbers, found ${kindOf(x)}`);
    if (typeof x === 'bigint' && typeof best === 'bigint' ? pick(Number(x - best), 0) : pick(Number(x), Number(best)))
      best = x;
  }
  return best;
}

function numericType(args: Ty[]): Ty | string {
  const xs = args.length === 1 ? [elemType(args[0]!) ?? args[0]!] : args;
  if (xs.every((t) => fits(t, T.int))) return T.int;
  if (xs.every((t) => fits(t, T.float))) return T.float;
  return 'arguments must be numbers (or one list of numbers)';
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    return Number(a) - Number(b);
  }
  return NaN;
}

const B64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

const list: Builtin[] = [
  {
    name: 'len',
    arity: [1, 1],
    type: ([a]) => {
      const b = baseOf(a!);
      return ['str', 'lit', 'list', 'tuple', 'map', 'record', 'json'].includes(b.k) &&
        (b.k !== 'lit' || typeof b.v === 'string')
        ? T.int
        : `len expects a string, list or object, found ${showType(a!)}`;
    },
    run: ([v], ctx) => {
      if (typeof v === 'string') return BigInt([...v].length);
      if (Array.isArray(v)) return BigInt(v.length);
      if (isObject(v)) return BigInt(v.fields.size);
      return ctx.fail(CleatCodes.TYPE_MISMATCH, `len expects a string, list or object, found ${kindOf(v!)}`);
    },
  },
  {
    name: 'keys',
    arity: [1, 1],
    type: ([a]) =>
      ['map', 'record', 'json'].includes(baseOf(a!).k) ? STRS : `keys expects an object, found ${showType(a!)}`,
    run: ([v], ctx) =>
      isObject(v) ? [...v.fields.keys()] : ctx.fail(CleatCodes.TYPE_MISMATCH, 'keys expects an object'),
  },
  {
    name: 'values',
    arity: [1, 1],
    type: ([a]) => {
      const b = baseOf(a!);
      if (b.k === 'map') return T.list(b.value);
      if (b.k === 'record') return T.list(b.open ? T.json : union(b.fields.map((f) => f.type)));
      if (b.k === 'json') return T.list(T.json);
      return `values expects an object, found ${showType(a!)}`;
    },
    run: ([v], ctx) =>
      isObject(v) ? [...v.fields.values()] : ctx.fail(CleatCodes.TYPE_MISMATCH, 'values expects an object'),
  },
  { name: 'str', arity: [1, 1], type: () => T.str, run: ([v]) => str(v!) },
  {
    name: 'upper',
    arity: [1, 1],
    type: (a) => expectArgs(a, [T.str], T.str),
    run: ([v]) => (v as string).toUpperCase(),
  },
  {
    name: 'lower',
    arity: [1, 1],
    type: (a) => expectArgs(a, [T.str], T.str),
    run: ([v]) => (v as string).toLowerCase(),
  },
  {
    name: 'join',
    arity: [2, 2],
    type: (a) => expectArgs(a, [STRS, T.str], T.str),
    run: ([xs, sep]) => (xs as Value[]).map(str).join(sep as string),
  },
  {
    name: 'split',
    arity: [2, 2],
    type: (a) => expectArgs(a, [T.str, T.str], STRS),
    run: ([s, sep], ctx) =>
      sep === '' ? ctx.fail(CleatCodes.RUNTIME, 'split: the separator is empty') : (s as string).split(sep as string),
  },
  {
    name: 'contains',
    arity: [2, 2],
    type: ([a, b]) => {
      const e = elemType(a!);
      if (e && baseOf(a!).k !== 'json') return T.bool;
      return expectArgs([a!, b!], [T.str, T.str], T.bool);
    },
    run: ([a, b], ctx) => {
      if (typeof a === 'string')
        return typeof b === 'string'
          ? a.includes(b)
          : ctx.fail(CleatCodes.TYPE_MISMATCH, 'contains(Str, x) expects a string x');
      if (Array.isArray(a)) return a.some((x) => valueEquals(x, b!));
      return ctx.fail(CleatCodes.TYPE_MISMATCH, `contains expects a string or a list, found ${kindOf(a!)}`);
    },
  },
  {
    name: 'starts_with',
    arity: [2, 2],
    type: (a) => expectArgs(a, [T.str, T.str], T.bool),
    run: ([s, p]) => (s as string).startsWith(p as string),
  },
  {
    name: 'ends_with',
    arity: [2, 2],
    type: (a) => expectArgs(a, [T.str, T.str], T.bool),
    run: ([s, p]) => (s as string).endsWith(p as string),
  },
  {
    name: 'replace',
    arity: [3, 3],
    type: (a) => expectArgs(a, [T.str, T.str, T.str], T.str),
    run: ([s, from, to]) => (from === '' ? s! : (s as string).split(from as string).join(to as string)),
  },
  {
    name: 'matches',
    arity: [2, 2],
    type: (a) => expectArgs(a, [T.str, T.str], T.bool),
    run: ([s, re], ctx) => {
      const r = compileRe2(re as string);
      if (typeof r === 'string') return ctx.fail(CleatCodes.REGEX, r);
      return r.test(wellFormed(s as string));
    },
  },
  { name: 'min', arity: [1, 64], type: numericType, run: (a, ctx) => numeric(a, ctx, (x, y) => x < y) },
  { name: 'max', arity: [1, 64], type: numericType, run: (a, ctx) => numeric(a, ctx, (x, y) => x > y) },
  {
    name: 'sort',
    arity: [1, 1],
    type: ([a]) => {
      const e = elemType(a!);
      if (!e) return `sort expects a list, found ${showType(a!)}`;
      if (!fits(e, T.str) && !fits(e, T.float))
        return `sort expects a list of strings or numbers, found ${showType(a!)}`;
      return T.list(e);
    },
    run: ([xs], ctx) => {
      const out = [...(xs as Value[])];
      for (const x of out)
        if (typeof x !== 'string' && typeof x !== 'bigint' && typeof x !== 'number')
          ctx.fail(CleatCodes.TYPE_MISMATCH, 'sort expects strings or numbers');
      const kinds = new Set(out.map((x) => (typeof x === 'string' ? 's' : 'n')));
      if (kinds.size > 1) ctx.fail(CleatCodes.TYPE_MISMATCH, 'sort cannot mix strings and numbers');
      return out.sort(compare);
    },
  },
  { name: 'to_json', arity: [1, 1], type: () => T.str, run: ([v]) => toJsonText(v!, 0) },
  { name: 'to_yaml', arity: [1, 1], type: () => T.str, run: ([v]) => toYamlText(v!) },
  { name: 'b64encode', arity: [1, 1], type: (a) => expectArgs(a, [T.str], T.str), run: ([s]) => B64(s as string) },
  {
    name: 'error',
    arity: [1, 1],
    type: (a) => expectArgs(a, [T.str], T.never),
    run: ([msg], ctx) => ctx.fail(CleatCodes.ERROR_CALL, str(msg!)),
  },
];

export const BUILTINS: ReadonlyMap<string, Builtin> = new Map(list.map((b) => [b.name, b]));
