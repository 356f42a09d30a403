/**
 * Pure string functions of std. Natives of go-jsonnet (substr, splitLimit,
 * splitLimitR, strReplace, trim, isEmpty, equalsIgnoreCase, char, codepoint,
 * lstripChars/rstripChars/stripChars, parseInt) use go-jsonnet's Go messages;
 * functions still written in std.jsonnet (startsWith, endsWith, split,
 * asciiUpper/Lower, findSubstr, parseOctal, parseHex, stringChars, lines,
 * deepJoin, resolvePath) use that code's assert/error texts, and the messages
 * of the natives they call for other type mistakes.
 * Invariant: indexes and lengths count code points.
 */
import type { JsonValue } from '../../../common/json.js';
import { isJsonObject } from '../../../common/json.js';
import { formatFloat } from '../../../go/strconv.js';
import { StdError } from './std-error.js';
import {
  codePoints,
  cpLength,
  isInt32,
  jsonEquals,
  jsonnetLength,
  typeName,
  wantInt,
  wantNumber,
  wantString,
} from './values.js';

/** std.char: Go's string(rune(n)) (fraction truncated; surrogates become U+FFFD). */
export function charOf(nV: JsonValue): string {
  const n = wantNumber(nV);
  if (n > 0x10ffff) throw new StdError(`Invalid unicode codepoint, got ${formatFloat(n, 'g', -1)}`);
  if (n < 0) throw new StdError(`Codepoints must be >= 0, got ${formatFloat(n, 'g', -1)}`);
  const cp = Math.trunc(n);
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  return String.fromCodePoint(cp);
}

export function codepoint(strV: JsonValue): number {
  const s = wantString(strV);
  const len = cpLength(s);
  if (len !== 1) throw new StdError(`codepoint takes a string of length 1, got length ${len}`);
  return s.codePointAt(0)!;
}

export function substr(strV: JsonValue, fromV: JsonValue, lenV: JsonValue): string {
  if (typeof strV !== 'string') throw new StdError(`substr first parameter should be a string, got ${typeName(strV)}`);
  if (typeof fromV !== 'number')
    throw new StdError(`substr second parameter should be a number, got ${typeName(fromV)}`);
  if (fromV % 1 !== 0)
    throw new StdError(`substr second parameter should be an integer, got ${formatFloat(fromV, 'f', 6)}`);
  if (fromV < 0)
    throw new StdError(`substr second parameter should be greater than zero, got ${formatFloat(fromV, 'f', 6)}`);
  if (typeof lenV !== 'number') throw new StdError(`substr third parameter should be a number, got ${typeName(lenV)}`);
  if (!isInt32(lenV))
    throw new StdError(`substr third parameter should be an integer, got ${formatFloat(lenV, 'f', 6)}`);
  if (lenV < 0) throw new StdError(`substr third parameter should be greater than zero, got ${lenV}`);
  const cps = codePoints(strV);
  if (fromV > cps.length) return '';
  return cps.slice(fromV, Math.min(fromV + lenV, cps.length)).join('');
}

/** std.length for the std.jsonnet helpers (strings, arrays, objects). */
function lengthOf(v: JsonValue): number {
  return jsonnetLength(v);
}

export function startsWith(a: JsonValue, b: JsonValue): boolean {
  const lb = lengthOf(b);
  if (lengthOf(a) < lb) return false;
  return jsonEquals(substr(a, 0, lb), b);
}

export function endsWith(a: JsonValue, b: JsonValue): boolean {
  const la = lengthOf(a);
  const lb = lengthOf(b);
  if (la < lb) return false;
  return jsonEquals(substr(a, la - lb, lb), b);
}

/** Go strings.SplitN(s, sep, n) for n == -1 (all) or n >= 1. */
function splitN(s: string, sep: string, n: number): string[] {
  if (n < 0) return s.split(sep);
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

export function splitLimit(strV: JsonValue, cV: JsonValue, maxV: JsonValue): string[] {
  const str = wantString(strV);
  const c = wantString(cV);
  const max = wantInt(maxV);
  if (max < -1) throw new StdError(`std.splitLimit third parameter should be -1 or non-negative, got ${max}`);
  if (c.length < 1) throw new StdError('std.splitLimit second parameter should have length 1 or greater, got 0');
  return splitN(str, c, max === -1 ? -1 : max + 1);
}

export function splitLimitR(strV: JsonValue, cV: JsonValue, maxV: JsonValue): string[] {
  let str = wantString(strV);
  const c = wantString(cV);
  const max = wantInt(maxV);
  if (max < -1) throw new StdError(`std.splitLimitR third parameter should be -1 or non-negative, got ${max}`);
  if (c.length < 1) throw new StdError('std.splitLimitR second parameter should have length 1 or greater, got 0');
  let count = str.split(c).length - 1; // Go strings.Count: non-overlapping, from the left
  if (max > -1 && count > max) count = max;
  const parts: string[] = new Array<string>(count + 1);
  for (let i = count; i > 0; i--) {
    const at = str.lastIndexOf(c);
    parts[i] = str.slice(at + c.length);
    str = str.slice(0, at);
  }
  parts[0] = str;
  return parts;
}

export function split(strV: JsonValue, cV: JsonValue): string[] {
  if (typeof strV !== 'string') throw new StdError('std.split first parameter must be a String, got ' + typeName(strV));
  if (typeof cV !== 'string') throw new StdError('std.split second parameter must be a String, got ' + typeName(cV));
  const len = cpLength(cV);
  if (len < 1) throw new StdError('std.split second parameter must have length 1 or greater, got ' + len);
  return splitLimit(strV, cV, -1);
}

export function strReplace(strV: JsonValue, fromV: JsonValue, toV: JsonValue): string {
  const str = wantString(strV);
  const from = wantString(fromV);
  const to = wantString(toV);
  if (from.length === 0) throw new StdError("'from' string must not be zero length.");
  return str.split(from).join(to);
}

/** The characters of a std.jsonnet "string-like" argument (std.stringChars semantics). */
function charsOf(v: JsonValue): JsonValue[] {
  if (typeof v === 'string') return codePoints(v);
  if (Array.isArray(v)) return v;
  if (isJsonObject(v) && Object.keys(v).length === 0) return [];
  if (isJsonObject(v)) throw new StdError('Unexpected type number, expected string');
  throw new StdError(`Unexpected type ${typeName(v)}`);
}

function mapAscii(strV: JsonValue, from: number, to: number, delta: number): string {
  let out = '';
  for (const ch of charsOf(strV)) {
    const cp = codepoint(ch);
    out += cp >= from && cp < to ? String.fromCharCode(cp + delta) : (ch as string);
  }
  return out;
}

export function asciiUpper(strV: JsonValue): string {
  return mapAscii(strV, 97, 123, -32);
}

export function asciiLower(strV: JsonValue): string {
  return mapAscii(strV, 65, 91, 32);
}

export function stringChars(strV: JsonValue): JsonValue[] {
  return charsOf(strV).slice();
}

// Go's unicode.IsSpace, which strings.TrimSpace uses.
const GO_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

export function trim(strV: JsonValue): string {
  return wantString(strV).replace(GO_SPACE, '');
}

/** go-jsonnet's rawMember for strip*Chars: is one character in `chars` (string or array)? */
function member(chars: JsonValue, ch: string): boolean {
  if (typeof chars === 'string') return chars.includes(ch);
  if (Array.isArray(chars)) return chars.some((e) => jsonEquals(e, ch));
  throw new StdError('std.member first argument must be an array or a string');
}

function wantStripString(v: JsonValue): string {
  if (typeof v !== 'string') throw new StdError(`Unexpected type ${typeName(v)}, expected string`);
  return v;
}

export function lstripChars(strV: JsonValue, chars: JsonValue): string {
  const cps = codePoints(wantStripString(strV));
  let i = 0;
  while (i < cps.length && member(chars, cps[i]!)) i++;
  return cps.slice(i).join('');
}

export function rstripChars(strV: JsonValue, chars: JsonValue): string {
  const cps = codePoints(wantStripString(strV));
  let n = cps.length;
  while (n > 0 && member(chars, cps[n - 1]!)) n--;
  return cps.slice(0, n).join('');
}

export function stripChars(strV: JsonValue, chars: JsonValue): string {
  return rstripChars(lstripChars(strV, chars), chars);
}

export function findSubstr(patV: JsonValue, strV: JsonValue): number[] {
  if (typeof patV !== 'string')
    throw new StdError('findSubstr first parameter should be a string, got ' + typeName(patV));
  if (typeof strV !== 'string')
    throw new StdError('findSubstr second parameter should be a string, got ' + typeName(strV));
  const pat = codePoints(patV);
  const str = codePoints(strV);
  const out: number[] = [];
  if (pat.length === 0 || str.length === 0 || pat.length > str.length) return out;
  for (let i = 0; i <= str.length - pat.length; i++) {
    let ok = true;
    for (let k = 0; k < pat.length; k++) {
      if (str[i + k] !== pat[k]) {
        ok = false;
        break;
      }
    }
    if (ok) out.push(i);
  }
  return out;
}

/** Go strconv.ParseInt(s, 10, 64) as go-jsonnet's native std.parseInt uses it. */
export function parseInt(strV: JsonValue): number {
  const s = wantString(strV);
  if (!/^[+-]?[0-9]+$/.test(s)) throw new StdError(`${s} is not a base 10 integer`);
  const big = BigInt(s);
  if (big > 9223372036854775807n || big < -9223372036854775808n) throw new StdError(`${s} is not a base 10 integer`);
  return Number(big);
}

/** std.jsonnet's parse_nat: digits from code points, so ':' is 10 in base 16 (a quirk we keep). */
function parseNat(str: string, base: number): number {
  let agg = 0;
  for (const ch of codePoints(str)) {
    const code = ch.codePointAt(0)!;
    const digit = code >= 97 ? code - 97 + 10 : code >= 65 ? code - 65 + 10 : code - 48;
    if (!(digit >= 0 && digit < base)) throw new StdError(`${str} is not a base ${base} integer`);
    agg = base * agg + digit;
  }
  return agg;
}

export function parseOctal(strV: JsonValue): number {
  if (typeof strV !== 'string') throw new StdError('Expected string, got ' + typeName(strV));
  if (strV.length === 0) throw new StdError('Not an octal number: ""');
  return parseNat(strV, 8);
}

export function parseHex(strV: JsonValue): number {
  if (typeof strV !== 'string') throw new StdError('Expected string, got ' + typeName(strV));
  if (strV.length === 0) throw new StdError('Not hexadecimal: ""');
  return parseNat(strV, 16);
}

export function isEmpty(strV: JsonValue): boolean {
  return wantString(strV).length === 0;
}

/** Go strings.EqualFold: equal under simple Unicode case folding, code point by code point. */
export function equalsIgnoreCase(aV: JsonValue, bV: JsonValue): boolean {
  const a = codePoints(wantString(aV));
  const b = codePoints(wantString(bV));
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (simpleCase(x, true) !== simpleCase(y, true) && simpleCase(x, false) !== simpleCase(y, false)) return false;
  }
  return true;
}

/** One-to-one case mapping (multi-character mappings such as ß -> SS are not simple folds). */
function simpleCase(ch: string, lower: boolean): string {
  const m = lower ? ch.toLowerCase() : ch.toUpperCase();
  return cpLength(m) === 1 ? m : ch;
}

/** go-jsonnet's native std.join for a string separator (nulls skipped). */
function joinStrings(sep: string, arr: JsonValue[]): string {
  let out = '';
  let first = true;
  for (const el of arr) {
    if (el === null) continue;
    if (typeof el !== 'string') throw new StdError(`Unexpected type ${typeName(el)}, expected string`);
    if (!first) out += sep;
    out += el;
    first = false;
  }
  return out;
}

export function lines(arr: JsonValue): string {
  if (!Array.isArray(arr)) throw new StdError(`Unexpected type ${typeName(arr)}, expected array`);
  return joinStrings('\n', [...arr, '']);
}

export function deepJoin(arr: JsonValue): string {
  if (typeof arr === 'string') return arr;
  if (Array.isArray(arr)) return arr.map(deepJoin).join('');
  throw new StdError('Expected string or array, got ' + typeName(arr));
}

export function resolvePath(f: JsonValue, r: JsonValue): string {
  const parts = split(f, '/');
  parts[parts.length - 1] = wantString(r);
  return joinStrings('/', parts);
}
