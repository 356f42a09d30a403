/**
 * Conservative upper bounds, in bytes, of what `printf` and `join` can print
 * for a value, computed without printing it. Plain strings count exactly;
 * quoted or hexadecimal forms, containers, numbers and diagnostics are
 * over-counted. Invariant: the bound is never below the real size.
 */

import { GoFloat, GoObject } from '../gotemplate/index.js';
import { byteLength } from '../gotemplate/value.js';

/** Worst growth of one byte once quoted (`\x01`) or hex-encoded with spaces (`% X`). */
const QUOTE_FACTOR = 4;
/** Bytes any number, bool or nil can print as with %v (a float64 prints in at most 24). */
const SCALAR_BOUND = 32;
/** Extra bytes for a container's brackets and, with %#v, its Go type name. */
const CONTAINER_OVERHEAD = 64;

/** Bound of `%v`-like output of `v`; `quoted` when strings may be quoted or hex-encoded. */
export function valueBound(v: unknown, quoted: boolean, depth = 0): number {
  if (typeof v === 'string') return quoted ? QUOTE_FACTOR * byteLength(v) + 2 : byteLength(v);
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean' || v instanceof GoFloat)
    return SCALAR_BOUND;
  if (typeof v === 'bigint') return SCALAR_BOUND;
  if (v instanceof GoObject) return SCALAR_BOUND + (quoted ? QUOTE_FACTOR : 1) * byteLength(v.format());
  if (v instanceof Uint8Array) return CONTAINER_OVERHEAD + v.length * (quoted ? QUOTE_FACTOR : SCALAR_BOUND / 8);
  if (depth > 10000) return Infinity;
  if (Array.isArray(v)) {
    let n = CONTAINER_OVERHEAD;
    for (const x of v) n += valueBound(x, quoted, depth + 1) + 2;
    return n;
  }
  if (typeof v === 'object') {
    let n = CONTAINER_OVERHEAD;
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) n += valueBound(k, quoted, depth + 1) + valueBound(o[k], quoted, depth + 1) + 4;
    return n;
  }
  return SCALAR_BOUND;
}

/** Go fmt caps widths and precisions at 1e6 (larger ones print %!(BADWIDTH)). */
const FMT_MAX_WIDTH = 1e6;

/** One parsed verb of a printf format. */
interface Verb {
  verb: string;
  width: number;
  precision: number;
  sharp: boolean;
}

/**
 * Walks a printf format as Go's fmt does (flags, [n] argument indexes, `*`
 * widths) and returns whether it uses %p and a bound of the result size.
 */
export function printfBound(format: string, args: readonly unknown[]): { usesP: boolean; bound: number } {
  let bound = 0;
  let usesP = false;
  let argNum = 0;
  let reordered = false;
  const n = format.length;
  let i = 0;
  while (i < n) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      bound += byteLength(format.slice(i));
      break;
    }
    bound += byteLength(format.slice(i, pct));
    i = pct + 1;
    const v: Verb = { verb: '', width: 0, precision: 0, sharp: false };
    while (i < n && '#0+- '.includes(format[i]!)) {
      if (format[i] === '#') v.sharp = true;
      i++;
    }
    const readIndex = (): void => {
      if (format[i] !== '[') return;
      const close = format.indexOf(']', i);
      if (close < 0) return;
      const idx = Number(format.slice(i + 1, close));
      reordered = true;
      if (Number.isInteger(idx) && idx >= 1) argNum = idx - 1;
      i = close + 1;
    };
    const readNumber = (): number => {
      if (format[i] === '*') {
        i++;
        const a = args[argNum++];
        return typeof a === 'number' ? Math.min(Math.abs(a), FMT_MAX_WIDTH) : 0;
      }
      let s = '';
      while (i < n && format[i]! >= '0' && format[i]! <= '9') s += format[i++];
      return s ? Math.min(Number(s), FMT_MAX_WIDTH) : 0;
    };
    readIndex();
    v.width = readNumber();
    if (format[i] === '.') {
      i++;
      readIndex();
      v.precision = readNumber();
    }
    readIndex();
    if (i >= n) {
      bound += 16; // %!(NOVERB)
      break;
    }
    const cp = format.codePointAt(i)!;
    v.verb = String.fromCodePoint(cp);
    i += v.verb.length;
    if (v.verb === '%') {
      bound += 1 + v.width;
      continue;
    }
    if (v.verb === 'p') usesP = true;
    if (argNum >= args.length) {
      bound += 16 + byteLength(v.verb); // %!d(MISSING)
      continue;
    }
    bound += verbBound(v, args[argNum++]);
  }
  if (!reordered && argNum < args.length) {
    bound += 16; // %!(EXTRA ...)
    for (let k = argNum; k < args.length; k++) bound += SCALAR_BOUND + valueBound(args[k], true);
  }
  return { usesP, bound };
}

function verbBound(v: Verb, arg: unknown): number {
  const exactString = typeof arg === 'string' && (v.verb === 's' || (v.verb === 'v' && !v.sharp));
  if (exactString) return Math.max(v.width, byteLength(arg));
  const quoted = v.verb === 'q' || v.verb === 'x' || v.verb === 'X' || (v.verb === 'v' && v.sharp);
  // Numbers with a precision print up to the precision in digits after at most 309 integer digits.
  return SCALAR_BOUND + 320 + v.width + v.precision + valueBound(arg, quoted);
}
