/**
 * strconv.ParseInt(s, 0, 64) and ParseUint(s, 0, 64): base prefixes 0x, 0o,
 * 0b and a bare leading 0 (octal), with Go's int64/uint64 ranges checked
 * exactly in BigInt. parseGoInteger leaves underscores to the caller (go-yaml
 * strips them before it asks); strconvParseInt takes them as Go's base 0 does.
 */

import { underscoreOK } from './atof.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64) syntax and range, for a string without underscores. */
export function parseGoInteger(s: string, signed: boolean): bigint | null {
  let body = s;
  let negative = false;
  if (signed && (body[0] === '+' || body[0] === '-')) {
    negative = body[0] === '-';
    body = body.slice(1);
  }
  let digits: string;
  let radix: number;
  let pattern: RegExp;
  if (/^0[xX]/.test(body)) [digits, radix, pattern] = [body.slice(2), 16, /^[0-9a-fA-F]+$/];
  else if (/^0[oO]/.test(body)) [digits, radix, pattern] = [body.slice(2), 8, /^[0-7]+$/];
  else if (/^0[bB]/.test(body)) [digits, radix, pattern] = [body.slice(2), 2, /^[01]+$/];
  else if (body.length > 1 && body[0] === '0') [digits, radix, pattern] = [body.slice(1), 8, /^[0-7]+$/];
  else [digits, radix, pattern] = [body, 10, /^[0-9]+$/];
  if (!pattern.test(digits)) return null;
  const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : radix === 2 ? '0b' : '';
  let value = BigInt(prefix + digits);
  if (negative) value = -value;
  if (signed ? value < INT64_MIN || value > INT64_MAX : value > UINT64_MAX) return null;
  return value;
}

/** strconv.ParseInt(s, 0, 64) (signed) or ParseUint(s, 0, 64), underscores allowed between digits as in Go literals. */
export function strconvParseInt(s: string, signed: boolean): bigint | null {
  if (s.includes('_')) {
    if (!underscoreOK(s)) return null;
    s = s.replace(/_/g, '');
  }
  return parseGoInteger(s, signed);
}
