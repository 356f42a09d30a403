/**
 * std.format(str, vals), i.e. the `%` operator on strings. go-jsonnet runs the
 * std.jsonnet implementation, so this follows that code's behaviour exactly,
 * floating-point steps included (render_int/render_float_dec/render_float_sci):
 * `%d` truncates toward zero (-1.5 -> "-1"), `%x` floors, `%e` finds the
 * exponent with log10 via log(x)/log(10), `%g` picks %e or %f like Python.
 * Codes are parsed before anything is formatted (so "Truncated format code."
 * wins over value errors); values are then formatted left to right and a
 * value is only looked at when its code needs it (so `%%` never complains
 * about missing values). `%s` uses std.toString.
 * Values reach the formatter through `FormatValues`, one element or field at a
 * time, so the evaluator can force only what the codes use, as std.jsonnet
 * does (`'%(a)s' % {a: 1, b: error 'x'}` is "1"). Parsed codes are cached per
 * format string (read-only once built): mixins format the same literal
 * against a config object hundreds of times.
 */
import type { JsonValue } from '../../../common/json.js';
import { isJsonObject } from '../../../common/json.js';
import { charOf } from './strings.js';
import { toStringValue } from './manifest-json.js';
import { goPow } from '../../../go/math.js';
import { StdError } from './std-error.js';
import { cpLength, expectedTypeError, getField, typeName } from './values.js';

interface CFlags {
  alt: boolean;
  zero: boolean;
  left: boolean;
  blank: boolean;
  plus: boolean;
}

type ConvType = 'd' | 'o' | 'x' | 'e' | 'f' | 'g' | 'c' | 's' | '%';

interface Code {
  mkey: string | null;
  cflags: CFlags;
  fw: number | '*';
  prec: number | '*' | null;
  ctype: ConvType;
  caps: boolean;
}

const TRUNCATED = 'Truncated format code.';

/** The values of one std.format call, each forced to JSON only when a code needs it. */
export type FormatValues =
  | { readonly kind: 'array'; readonly length: number; at(i: number): JsonValue }
  | { readonly kind: 'object'; has(key: string): boolean; get(key: string): JsonValue };

type Codes = readonly (string | Code)[];
const codeCache = new Map<string, Codes>();
const CODE_CACHE_LIMIT = 1024;
/** Longer format strings are parsed each time; with the entry limit the cache pins at most ~4 MB. */
const CACHED_FORMAT_MAX_LENGTH = 2048;

function cachedCodes(str: string): Codes {
  if (str.length > CACHED_FORMAT_MAX_LENGTH) return parseCodes(str);
  let codes = codeCache.get(str);
  if (codes === undefined) {
    codes = parseCodes(str);
    // Whole-cache reset keeps memory bounded without LRU bookkeeping on a hot path.
    if (codeCache.size >= CODE_CACHE_LIMIT) codeCache.clear();
    codeCache.set(str, codes);
  }
  return codes;
}

/**
 * Parses over UTF-16 units: every character of a code is ASCII, and a literal run is sliced
 * whole between codes (a `%` never splits a surrogate pair). Building each run one code point
 * at a time was 5 MB of strings for kube-prometheus's prometheus rules, most parsed once.
 */
function parseCodes(str: string): (string | Code)[] {
  const n = str.length;
  const out: (string | Code)[] = [];
  let literalStart = 0;
  let i = 0;
  const at = (j: number): string => {
    if (j >= n) throw new StdError(TRUNCATED);
    return str[j]!;
  };
  for (;;) {
    const percent = str.indexOf('%', i);
    if (percent < 0) break;
    const cur = str.slice(literalStart, percent);
    i = percent + 1;
    at(i);
    // mapping key
    let mkey: string | null = null;
    if (str[i] === '(') {
      const close = str.indexOf(')', i + 1);
      if (close < 0) throw new StdError(TRUNCATED);
      mkey = str.slice(i + 1, close);
      i = close + 1;
    }
    // flags
    const cflags: CFlags = { alt: false, zero: false, left: false, blank: false, plus: false };
    for (;;) {
      const f = at(i);
      if (f === '#') cflags.alt = true;
      else if (f === '0') cflags.zero = true;
      else if (f === '-') cflags.left = true;
      else if (f === ' ') cflags.blank = true;
      else if (f === '+') cflags.plus = true;
      else break;
      i++;
    }
    const parseWidth = (): number | '*' => {
      if (i < n && str[i] === '*') {
        i++;
        return '*';
      }
      let v = 0;
      for (;;) {
        const d = at(i);
        if (d >= '0' && d <= '9') {
          v = v * 10 + (d.charCodeAt(0) - 48);
          i++;
        } else return v;
      }
    };
    const fw = parseWidth();
    let prec: number | '*' | null = null;
    if (at(i) === '.') {
      i++;
      prec = parseWidth();
    }
    const lm = at(i);
    if (lm === 'h' || lm === 'l' || lm === 'L') i++;
    at(i);
    // One code point (the error names it whole when it is astral).
    const t = String.fromCodePoint(str.codePointAt(i)!);
    i += t.length;
    let ctype: ConvType;
    let caps = false;
    switch (t) {
      case 'd':
      case 'i':
      case 'u':
        ctype = 'd';
        break;
      case 'o':
      case 'x':
      case 'e':
      case 'f':
      case 'g':
      case 'c':
      case 's':
      case '%':
        ctype = t;
        break;
      case 'X':
      case 'E':
      case 'F':
      case 'G':
        ctype = t.toLowerCase() as ConvType;
        caps = true;
        break;
      default:
        throw new StdError('Unrecognised conversion type: ' + t);
    }
    out.push(cur, { mkey, cflags, fw, prec, ctype, caps });
    literalStart = i;
  }
  out.push(str.slice(literalStart));
  return out;
}

// ---- the std.jsonnet renderers, step for step ----
// Jsonnet arithmetic fails where IEEE would go on: a result that is infinite
// is "Overflow", NaN is "Not a number", x / 0 is "Division by zero." (e.g.
// "%.400f" % 1 fails in std.pow). These helpers keep those failures.

function num(x: number): number {
  if (Number.isNaN(x)) throw new StdError('Not a number');
  if (!Number.isFinite(x)) throw new StdError('Overflow');
  return x;
}

function div(a: number, b: number): number {
  if (b === 0) throw new StdError('Division by zero.');
  return num(a / b);
}

function pow10(e: number): number {
  return num(goPow(10, e));
}

function log(x: number): number {
  return num(Math.log(x));
}

// Beyond this a field width is a resource attack, not a layout; std.jsonnet
// would grind through it one character at a time, we refuse it.
const MAX_PADDING = 1 << 24;

function padding(w: number, s: string): string {
  if (!(w > 0)) return '';
  // std.jsonnet adds one pad per step while w > 0, so a fractional width rounds up.
  const n = Math.ceil(w);
  if (n > MAX_PADDING) throw new StdError(`Format field width too large: ${n}`);
  return s.repeat(n);
}

function padLeft(str: string, w: number, s: string): string {
  return padding(w - cpLength(str), s) + str;
}

function padRight(str: string, w: number, s: string): string {
  return str + padding(w - cpLength(str), s);
}

function renderInt(
  neg: boolean,
  mag: number,
  minChars: number,
  minDigits: number,
  blank: boolean,
  plus: boolean,
  radix: number,
  zeroPrefix: string,
): string {
  let dec: string;
  if (mag === 0) dec = '0';
  else {
    let digits = '';
    let n = mag;
    // aux(n) = aux(floor(n / radix)) + (n % radix), unrolled; guard NaN/Infinity loops
    let guard = 0;
    while (n !== 0 && guard++ < 2000) {
      digits = String(n % radix) + digits;
      n = Math.floor(n / radix);
    }
    dec = zeroPrefix + digits;
  }
  const zp = minChars - (neg || blank || plus ? 1 : 0);
  const zp2 = Math.max(zp, minDigits);
  return (neg ? '-' : plus ? '+' : blank ? ' ' : '') + padLeft(dec, zp2, '0');
}

function renderHex(
  nIn: number,
  minChars: number,
  minDigits: number,
  blank: boolean,
  plus: boolean,
  addZerox: boolean,
  capitals: boolean,
): string {
  const numerals = capitals ? '0123456789ABCDEF' : '0123456789abcdef';
  const n_ = Math.abs(nIn);
  let hex: string;
  if (Math.floor(n_) === 0) hex = '0';
  else {
    hex = '';
    let n = Math.floor(n_);
    let guard = 0;
    while (n !== 0 && guard++ < 2000) {
      hex = numerals[n % 16]! + hex;
      n = Math.floor(n / 16);
    }
  }
  const neg = nIn < 0;
  const zp = minChars - (neg || blank || plus ? 1 : 0) - (addZerox ? 2 : 0);
  const zp2 = Math.max(zp, minDigits);
  const hex2 = (addZerox ? (capitals ? '0X' : '0x') : '') + padLeft(hex, zp2, '0');
  return (neg ? '-' : plus ? '+' : blank ? ' ' : '') + hex2;
}

function stripTrailingZero(str: string): string {
  return str.replace(/0+$/, '');
}

function jsonnetSign(n: number): number {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

function renderFloatDec(
  nIn: number,
  zeroPad: number,
  blank: boolean,
  plus: boolean,
  ensurePt: boolean,
  trailing: boolean,
  prec: number,
): string {
  const n_ = Math.abs(nIn);
  const denominator = pow10(prec);
  const numerator = num(num(Math.abs(n_) * denominator) + 0.5);
  const whole = jsonnetSign(n_) * Math.floor(div(numerator, denominator));
  if (denominator === 0) throw new StdError('Division by zero.');
  const frac = Math.floor(numerator) % denominator;
  const dotSize = prec === 0 && !ensurePt ? 0 : 1;
  const zp = zeroPad - prec - dotSize;
  const str = renderInt(nIn < 0, whole, zp, 0, blank, plus, 10, '');
  if (prec === 0) return str + (ensurePt ? '.' : '');
  if (trailing || frac > 0) {
    const fracStr = renderInt(false, frac, prec, 0, false, false, 10, '');
    return str + '.' + (trailing ? fracStr : stripTrailingZero(fracStr));
  }
  return str;
}

function renderFloatSci(
  nIn: number,
  zeroPad: number,
  blank: boolean,
  plus: boolean,
  ensurePt: boolean,
  trailing: boolean,
  caps: boolean,
  prec: number,
): string {
  const exponent = nIn === 0 ? 0 : Math.floor(div(log(Math.abs(nIn)), log(10)));
  const suff = (caps ? 'E' : 'e') + renderInt(exponent < 0, Math.abs(exponent), 3, 0, false, true, 10, '');
  // -324 is the smallest exponent; 10^-324 underflows to 0, so divide in two steps.
  const mantissa = exponent === -324 ? div(num(nIn * 10), pow10(exponent + 1)) : div(nIn, pow10(exponent));
  const zp2 = zeroPad - cpLength(suff);
  return renderFloatDec(mantissa, zp2, blank, plus, ensurePt, trailing, prec) + suff;
}

type Lazy<T> = () => T;

function formatCode(
  val: Lazy<JsonValue>,
  code: Code,
  fw: Lazy<number>,
  precOrNull: Lazy<number | null>,
  at: string,
): string {
  const cflags = code.cflags;
  const fpprec = (): number => precOrNull() ?? 6;
  const iprec = (): number => precOrNull() ?? 0;
  const zp = (): number => (cflags.zero && !cflags.left ? fw() : 0);
  const needNumber = (): number => {
    const v = val();
    if (typeof v !== 'number') throw new StdError(`Format required number at ${at}, got ${typeName(v)}`);
    return v;
  };
  switch (code.ctype) {
    case 's':
      return toStringValue(val());
    case 'd': {
      const v = needNumber();
      return renderInt(v <= -1, Math.floor(Math.abs(v)), zp(), iprec(), cflags.blank, cflags.plus, 10, '');
    }
    case 'o': {
      const v = needNumber();
      return renderInt(
        v <= -1,
        Math.floor(Math.abs(v)),
        zp(),
        iprec(),
        cflags.blank,
        cflags.plus,
        8,
        cflags.alt ? '0' : '',
      );
    }
    case 'x': {
      const v = needNumber();
      return renderHex(Math.floor(v), zp(), iprec(), cflags.blank, cflags.plus, cflags.alt, code.caps);
    }
    case 'f': {
      const v = needNumber();
      return renderFloatDec(v, zp(), cflags.blank, cflags.plus, cflags.alt, true, fpprec());
    }
    case 'e': {
      const v = needNumber();
      return renderFloatSci(v, zp(), cflags.blank, cflags.plus, cflags.alt, true, code.caps, fpprec());
    }
    case 'g': {
      const v = needNumber();
      const exponent = v !== 0 ? Math.floor(div(log(Math.abs(v)), log(10))) : 0;
      const p = fpprec();
      if (exponent < -4 || exponent >= p) {
        return renderFloatSci(v, zp(), cflags.blank, cflags.plus, cflags.alt, cflags.alt, code.caps, p - 1);
      }
      const digitsBeforePt = Math.max(1, exponent + 1);
      return renderFloatDec(v, zp(), cflags.blank, cflags.plus, cflags.alt, cflags.alt, p - digitsBeforePt);
    }
    case 'c': {
      const v = val();
      if (typeof v === 'number') return charOf(v);
      if (typeof v === 'string') {
        const len = cpLength(v);
        if (len === 1) return v;
        throw new StdError('%c expected 1-sized string got: ' + len);
      }
      throw new StdError('%c expected number / string, got: ' + typeName(v));
    }
    default:
      return '%';
  }
}

/** A width or precision taken from the values (`*`) must be a number once used. */
function asNumber(v: JsonValue): number {
  if (typeof v !== 'number') throw expectedTypeError(v, 'number');
  return v;
}

function formatArray(codes: Codes, arr: FormatValues & { kind: 'array' }): string {
  let j = 0;
  let out = '';
  for (const code of codes) {
    if (typeof code === 'string') {
      out += code;
      continue;
    }
    let fw: Lazy<number>;
    if (code.fw === '*') {
      const at = j;
      fw = () => {
        if (at >= arr.length) throw new StdError(`Not enough values to format: ${arr.length}, expected at least ${at}`);
        return asNumber(arr.at(at));
      };
      j++;
    } else {
      const w = code.fw;
      fw = () => w;
    }
    let prec: Lazy<number | null>;
    if (code.prec === '*') {
      const at = j;
      prec = () => {
        if (at >= arr.length) throw new StdError(`Not enough values to format: ${arr.length}, expected at least ${at}`);
        return asNumber(arr.at(at));
      };
      j++;
    } else {
      const p = code.prec;
      prec = () => p;
    }
    const j2 = j;
    const val: Lazy<JsonValue> = () => {
      if (j2 < arr.length) return arr.at(j2);
      throw new StdError(`Not enough values to format: ${arr.length}, expected more than ${j2}`);
    };
    // pad_left(s, fw, ' ') evaluates the width before the formatted value.
    const width = fw();
    const s = code.ctype === '%' ? '%' : formatCode(val, code, fw, prec, String(j2));
    out += code.cflags.left ? padRight(s, width, ' ') : padLeft(s, width, ' ');
    if (code.ctype !== '%') j = j2 + 1;
  }
  if (j < arr.length) throw new StdError(`Too many values to format: ${arr.length}, expected ${j}`);
  return out;
}

function formatObject(codes: Codes, obj: FormatValues & { kind: 'object' }): string {
  let out = '';
  for (const code of codes) {
    if (typeof code === 'string') {
      out += code;
      continue;
    }
    const key = (): string => {
      if (code.mkey === null) throw new StdError('Mapping keys required.');
      return code.mkey;
    };
    const fw = (): number => {
      if (code.fw === '*') throw new StdError('Cannot use * field width with object.');
      return code.fw;
    };
    const prec = (): number | null => {
      if (code.prec === '*') throw new StdError('Cannot use * precision with object.');
      return code.prec;
    };
    const val = (): JsonValue => {
      const f = key();
      if (!obj.has(f)) throw new StdError('No such field: ' + f);
      return obj.get(f);
    };
    const width = fw();
    const s = code.ctype === '%' ? '%' : formatCode(val, code, fw, prec, key());
    out += code.cflags.left ? padRight(s, width, ' ') : padLeft(s, width, ' ');
  }
  return out;
}

export function format(strV: JsonValue, vals: JsonValue): string {
  // std.jsonnet takes std.length(str) first, whose error has no "expected" part.
  if (typeof strV !== 'string') throw new StdError(`Unexpected type ${typeName(strV)}`);
  if (Array.isArray(vals)) return formatWith(strV, { kind: 'array', length: vals.length, at: (i) => vals[i]! });
  if (isJsonObject(vals))
    return formatWith(strV, {
      kind: 'object',
      has: (k) => getField(vals, k) !== undefined,
      get: (k) => getField(vals, k)!,
    });
  return formatWith(strV, { kind: 'array', length: 1, at: () => vals });
}

/** std.format over values the caller forces on demand (codes are parsed first, so format errors win). */
export function formatWith(str: string, vals: FormatValues): string {
  const codes = cachedCodes(str);
  return vals.kind === 'array' ? formatArray(codes, vals) : formatObject(codes, vals);
}
