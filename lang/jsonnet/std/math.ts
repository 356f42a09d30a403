/**
 * std math (https://jsonnet.org/ref/stdlib.html#math). Results are checked
 * like go-jsonnet's makeDoubleCheck: NaN is "Not a number", ±Inf "Overflow".
 * Rounding and frexp follow Go's math package; the functions whose last bit
 * differs between V8 and Go are computed as Go does (go-math.ts).
 */
import type { Evaluator } from '../evaluator.js';
import { type Value, typeName } from '../value.js';
import type { BuiltinTable } from './builtin.js';
import { frexp, goAcos, goAsin, goAtan, goAtan2, goCos, goSin, goTan, goPow } from '../../go/math.js';

function lift(f: (x: number) => number): BuiltinTable[string] {
  return { params: ['x'], types: ['number'], fn: (ev, [x]) => ev.checkNum(f(x as number)) };
}

function liftBool(f: (x: number) => boolean): BuiltinTable[string] {
  return { params: ['x'], types: ['number'], fn: (_ev, [x]) => f(x as number) };
}

/** Go's math.Round: half away from zero. */
function goRound(x: number): number {
  if (!Number.isFinite(x)) return x;
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

function numErr(ev: Evaluator, v: Value, msg: string): never {
  throw ev.error(`${msg}, got ${typeName(v)}`);
}

export const mathBuiltins: BuiltinTable = {
  abs: {
    params: ['n'],
    fn: (ev, [n]) => (typeof n === 'number' ? Math.abs(n) : numErr(ev, n!, 'std.abs expected number')),
  },
  sign: {
    params: ['n'],
    fn: (ev, [n]) =>
      typeof n === 'number' ? (n > 0 ? 1 : n < 0 ? -1 : 0) : numErr(ev, n!, 'std.sign expected number'),
  },
  max: {
    params: ['a', 'b'],
    fn: (ev, [a, b]) => {
      if (typeof a !== 'number') numErr(ev, a!, 'std.max first param expected number');
      if (typeof b !== 'number') numErr(ev, b!, 'std.max second param expected number');
      return a > b ? a : b;
    },
  },
  min: {
    params: ['a', 'b'],
    fn: (ev, [a, b]) => {
      if (typeof a !== 'number') numErr(ev, a!, 'std.min first param expected number');
      if (typeof b !== 'number') numErr(ev, b!, 'std.min second param expected number');
      return a < b ? a : b;
    },
  },
  clamp: {
    params: ['x', 'minVal', 'maxVal'],
    fn: (ev, [x, lo, hi]) => (ev.compare(x!, lo!) < 0 ? lo! : ev.compare(x!, hi!) > 0 ? hi! : x!),
  },
  pow: {
    params: ['x', 'n'],
    types: ['number', 'number'],
    fn: (ev, [x, n]) => ev.checkNum(goPow(x as number, n as number)),
  },
  hypot: {
    params: ['x', 'y'],
    types: ['number', 'number'],
    fn: (ev, [x, y]) => ev.checkNum(Math.hypot(x as number, y as number)),
  },
  atan2: {
    params: ['y', 'x'],
    types: ['number', 'number'],
    fn: (ev, [y, x]) => ev.checkNum(goAtan2(y as number, x as number)),
  },
  modulo: {
    params: ['x', 'y'],
    types: ['number', 'number'],
    fn: (ev, [x, y]) => {
      if (y === 0) throw ev.error('Division by zero.');
      return ev.checkNum((x as number) % (y as number));
    },
  },
  mod: { params: ['a', 'b'], fn: (ev, [a, b]) => ev.mod(a!, b!) },
  exp: lift(Math.exp),
  log: lift(Math.log),
  log2: lift(Math.log2),
  log10: lift(Math.log10),
  floor: lift(Math.floor),
  ceil: lift(Math.ceil),
  sqrt: lift(Math.sqrt),
  sin: lift(goSin),
  cos: lift(goCos),
  tan: lift(goTan),
  asin: lift(goAsin),
  acos: lift(goAcos),
  atan: lift(goAtan),
  round: lift(goRound),
  deg2rad: lift((x) => (x * Math.PI) / 180),
  rad2deg: lift((x) => (x * 180) / Math.PI),
  mantissa: lift((x) => frexp(x)[0]),
  exponent: lift((x) => frexp(x)[1]),
  isEven: liftBool((x) => Math.trunc(x) % 2 === 0),
  isOdd: liftBool((x) => Math.trunc(x) % 2 !== 0),
  isInteger: liftBool((x) => Number.isFinite(x) && Math.trunc(x) === x),
  isDecimal: liftBool((x) => !(Number.isFinite(x) && Math.trunc(x) === x)),
};
