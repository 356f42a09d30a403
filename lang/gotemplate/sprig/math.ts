/**
 * Sprig math functions (https://masterminds.github.io/sprig/math.html and
 * mathf.html). Integer functions convert with cast.ToInt64 and return int64;
 * the float variants addf/subf/mulf/divf compute in decimal (as Sprig does
 * with shopspring/decimal: `addf 0.1 0.2` is 0.3, division to 16 places).
 */

import { type FuncDef, def, pure } from '../function.js';
import { goFloat } from '../value.js';
import { toFloat64, toInt64 } from './convert.js';

/** A decimal number: mantissa × 10^exp. */
interface Dec {
  m: bigint;
  e: number;
}

function decFromFloat(f: number): Dec {
  if (!Number.isFinite(f)) throw new Error(`Cannot create a Decimal from ${f}`);
  if (f === 0) return { m: 0n, e: 0 };
  const [mant, exp] = f.toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '').replace('-', '');
  const frac = mant.includes('.') ? mant.split('.')[1]!.length : 0;
  const m = BigInt(digits) * (f < 0 ? -1n : 1n);
  return { m, e: Number(exp) - frac };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.m * 10n ** BigInt(a.e - e), b.m * 10n ** BigInt(b.e - e), e];
}

function decToFloat(d: Dec): number {
  return Number(`${d.m}e${d.e}`);
}

const DIVISION_PRECISION = 16;

function decDiv(a: Dec, b: Dec): Dec {
  if (b.m === 0n) throw new Error('decimal division by 0');
  // Quotient scaled to DIVISION_PRECISION places, rounded half away from zero.
  const shift = DIVISION_PRECISION + 1 + a.e - b.e;
  let num = a.m;
  let den = b.m;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  let q = num / den;
  const neg = q < 0n || (q === 0n && num < 0n !== den < 0n);
  const abs = q < 0n ? -q : q;
  let r = abs / 10n;
  if (abs % 10n >= 5n) r += 1n;
  q = neg ? -r : r;
  return { m: q, e: -DIVISION_PRECISION };
}

type Op = (a: Dec, b: Dec) => Dec;
const add: Op = (a, b) => {
  const [x, y, e] = align(a, b);
  return { m: x + y, e };
};
const sub: Op = (a, b) => {
  const [x, y, e] = align(a, b);
  return { m: x - y, e };
};
const mul: Op = (a, b) => ({ m: a.m * b.m, e: a.e + b.e });

function decimalOp(first: unknown, rest: unknown[], op: Op): number {
  let acc = decFromFloat(toFloat64(first));
  for (const x of rest) acc = op(acc, decFromFloat(toFloat64(x)));
  return decToFloat(acc);
}

function intDiv(a: number, b: number, what: 'div' | 'mod'): number {
  if (b === 0) throw new Error('runtime error: integer divide by zero');
  return what === 'div' ? Math.trunc(a / b) : a % b;
}

function round(a: unknown, p: number, ...opt: unknown[]): number {
  const roundOn = opt.length > 0 ? toFloat64(opt[0]) : 0.5;
  const val = toFloat64(a);
  const pow = Math.pow(10, p);
  const digit = pow * val;
  const div = digit - Math.trunc(digit);
  const r = div >= roundOn ? Math.ceil(digit) : Math.floor(digit);
  return r / pow;
}

const f = (n: number) => goFloat(n);

export const mathFuncs: Record<string, FuncDef> = {
  add1: pure(['any'], (i: unknown) => toInt64(i) + 1),
  add: pure([], (...xs: unknown[]) => xs.reduce<number>((s, x) => s + toInt64(x), 0), 'any'),
  sub: pure(['any', 'any'], (a: unknown, b: unknown) => toInt64(a) - toInt64(b)),
  div: pure(['any', 'any'], (a: unknown, b: unknown) => intDiv(toInt64(a), toInt64(b), 'div')),
  mod: pure(['any', 'any'], (a: unknown, b: unknown) => intDiv(toInt64(a), toInt64(b), 'mod')),
  mul: pure(['any'], (a: unknown, ...xs: unknown[]) => xs.reduce<number>((s, x) => s * toInt64(x), toInt64(a)), 'any'),
  max: pure(
    ['any'],
    (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.max(m, toInt64(x)), toInt64(a)),
    'any',
  ),
  biggest: pure(
    ['any'],
    (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.max(m, toInt64(x)), toInt64(a)),
    'any',
  ),
  min: pure(
    ['any'],
    (a: unknown, ...xs: unknown[]) => xs.reduce<number>((m, x) => Math.min(m, toInt64(x)), toInt64(a)),
    'any',
  ),
  maxf: pure(
    ['any'],
    (a: unknown, ...xs: unknown[]) => f(xs.reduce<number>((m, x) => Math.max(m, toFloat64(x)), toFloat64(a))),
    'any',
  ),
  minf: pure(
    ['any'],
    (a: unknown, ...xs: unknown[]) => f(xs.reduce<number>((m, x) => Math.min(m, toFloat64(x)), toFloat64(a))),
    'any',
  ),
  add1f: pure(['any'], (i: unknown) => f(decimalOp(i, [1], add))),
  addf: pure([], (...xs: unknown[]) => f(decimalOp(0, xs, add)), 'any'),
  subf: pure(['any'], (a: unknown, ...xs: unknown[]) => f(decimalOp(a, xs, sub)), 'any'),
  mulf: pure(['any'], (a: unknown, ...xs: unknown[]) => f(decimalOp(a, xs, mul)), 'any'),
  divf: pure(['any'], (a: unknown, ...xs: unknown[]) => f(decimalOp(a, xs, decDiv)), 'any'),
  ceil: pure(['any'], (a: unknown) => f(Math.ceil(toFloat64(a)))),
  floor: pure(['any'], (a: unknown) => f(Math.floor(toFloat64(a)))),
  round: pure(['any', 'int'], (a: unknown, p: number, ...o: unknown[]) => f(round(a, p, ...o)), 'float64'),
  randInt: def(['int', 'int'], (ctx, min: number, max: number) => {
    if (max - min <= 0) throw new Error('invalid argument to Intn');
    return Math.floor(ctx.random() * (max - min)) + min;
  }),
};
