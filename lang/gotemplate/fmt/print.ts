/**
 * Go's fmt package (Sprint, Sprintln, Sprintf) over the template value model
 * (value.ts). Verbs, flags, width, precision, `*` and `[n]` argument indexes
 * and the `%!verb(type=value)` error forms follow Go; maps print with keys in
 * sorted order and nested nil elements print as `<nil>` as Go's printValue does.
 * Invariant: never throws on any format string or argument.
 */

import { GoObject, kindOf, numberOf, typeName } from '../value.js';
import { compareCodepoints } from '../../common/json.js';
import { canBackquote, formatFloat, isPrint, quote, quoteRune } from '../../go/strconv.js';

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  /** %+v */
  plusV: boolean;
  /** %#v */
  sharpV: boolean;
  wid?: number;
  prec?: number;
}

function noFlags(): Flags {
  return { plus: false, minus: false, sharp: false, space: false, zero: false, plusV: false, sharpV: false };
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function pad(f: Flags, s: string): string {
  if (f.wid === undefined) return s;
  const n = f.wid - runeCount(s);
  if (n <= 0) return s;
  if (f.minus) return s + ' '.repeat(n);
  return (f.zero ? '0' : ' ').repeat(n) + s;
}

function padSpaces(f: Flags, s: string): string {
  return pad({ ...f, zero: false }, s);
}

/** Integer formatting (fmt.fmtInteger) for bases 2, 8, 10, 16. */
function fmtInteger(f: Flags, v: bigint, base: number, verb: string): string {
  const neg = v < 0n;
  const abs = neg ? -v : v;
  let digits = abs.toString(base);
  if (verb === 'X') digits = digits.toUpperCase();
  let prec = 0;
  if (f.prec !== undefined) {
    prec = f.prec;
    if (prec === 0 && abs === 0n) return padSpaces(f, '');
  } else if (f.zero && !f.minus && f.wid !== undefined) {
    prec = f.wid;
    if (neg || f.plus || f.space) prec--;
  }
  if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
  if (f.sharp) {
    if (base === 2) digits = '0b' + digits;
    else if (base === 8 && digits[0] !== '0') digits = '0' + digits;
    else if (base === 16) digits = (verb === 'X' ? '0X' : '0x') + digits;
  }
  if (verb === 'O') digits = '0o' + digits;
  if (neg) digits = '-' + digits;
  else if (f.plus) digits = '+' + digits;
  else if (f.space) digits = ' ' + digits;
  return padSpaces(f, digits);
}

function fmtFloat(f: Flags, v: number, verb: string, prec: number): string {
  if (f.prec !== undefined) prec = f.prec;
  let num = formatFloat(v, verb, prec);
  if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
  if (f.space && num[0] === '+' && !f.plus) num = ' ' + num.slice(1);
  if (num[1] === 'I' || num[1] === 'N') {
    if (num[1] === 'N' && !f.space && !f.plus) num = num.slice(1);
    return padSpaces(f, num);
  }
  if (f.sharp && verb !== 'b') {
    num = sharpFloat(num, verb, prec);
  }
  if (f.plus || num[0] !== '+') {
    if (f.zero && !f.minus && f.wid !== undefined && f.wid > num.length) {
      return num[0] + '0'.repeat(f.wid - num.length) + num.slice(1);
    }
    return pad(f, num);
  }
  return pad(f, num.slice(1));
}

/** The '#' flag for floats: always a decimal point; %g keeps trailing zeros. */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = 0;
  if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x' || verb === 'X') {
    digits = prec;
    if (digits === -1) digits = verb === 'x' || verb === 'X' ? 1 : 6;
  }
  let tail = '';
  const expAt = num.slice(1).search(/[eEpP]/);
  let body = num;
  if (expAt >= 0) {
    tail = num.slice(expAt + 1);
    body = num.slice(0, expAt + 1);
  }
  let sawDot = false;
  let sawNonzero = false;
  for (let i = 1; i < body.length; i++) {
    const c = body[i]!;
    if (c === '.') sawDot = true;
    else if (c >= '0' && c <= '9') {
      if (c !== '0') sawNonzero = true;
      if (sawNonzero) digits--;
    } else if (c === 'x' || c === 'X') {
      digits--;
    }
  }
  if (!sawDot) {
    if (body.length === 2 && body[1] === '0') digits--;
    body += '.';
  }
  if (verb !== 'e' && verb !== 'E' && verb !== 'f' && verb !== 'F') while (digits-- > 0) body += '0';
  return body + tail;
}

function hexString(f: Flags, s: string, verb: string): string {
  const bytes = new TextEncoder().encode(s);
  let out = '';
  const prefix = verb === 'X' ? '0X' : '0x';
  bytes.forEach((b, i) => {
    if (f.space && i > 0) out += ' ';
    if (f.sharp && (f.space || i === 0)) out += prefix;
    const h = b.toString(16).padStart(2, '0');
    out += verb === 'X' ? h.toUpperCase() : h;
  });
  return pad(f, out);
}

function truncate(f: Flags, s: string): string {
  if (f.prec === undefined) return s;
  const rs = Array.from(s);
  return rs.length > f.prec ? rs.slice(0, f.prec).join('') : s;
}

function fmtString(f: Flags, s: string, verb: string): string | undefined {
  switch (verb) {
    case 'v':
      if (f.sharpV) return pad(f, quote(s));
      return pad(f, truncate(f, s));
    case 's':
      return pad(f, truncate(f, s));
    case 'x':
    case 'X':
      return hexString(f, truncate(f, s), verb);
    case 'q': {
      const t = truncate(f, s);
      if (f.sharp && canBackquote(t)) return pad(f, '`' + t + '`');
      return pad(f, quote(t, f.plus));
    }
  }
  return undefined;
}

function fmtC(f: Flags, r: bigint): string {
  const n = r < 0n || r > 0x10ffffn || (r >= 0xd800n && r <= 0xdfffn) ? 0xfffd : Number(r);
  return pad(f, String.fromCodePoint(n));
}

function fmtUnicode(f: Flags, r: bigint): string {
  let s = 'U+' + (r < 0n ? (r + (1n << 64n)).toString(16) : r.toString(16)).toUpperCase().padStart(f.prec ?? 4, '0');
  if (f.sharp && r >= 0n && r <= 0x10ffffn && isPrint(Number(r))) s += " '" + String.fromCodePoint(Number(r)) + "'";
  return padSpaces(f, s);
}

function fmtInt(f: Flags, v: bigint, verb: string): string | undefined {
  switch (verb) {
    case 'v':
    case 'd':
      return fmtInteger(f, v, 10, verb);
    case 'b':
      return fmtInteger(f, v, 2, verb);
    case 'o':
    case 'O':
      return fmtInteger(f, v, 8, verb);
    case 'x':
    case 'X':
      return fmtInteger(f, v, 16, verb);
    case 'c':
      return fmtC(f, v);
    case 'q':
      return pad(f, quoteRune(v < 0n || v > 0x10ffffn ? 0xfffd : Number(v), f.plus));
    case 'U':
      return fmtUnicode(f, v);
  }
  return undefined;
}

function fmtFloatVerb(f: Flags, v: number, verb: string): string | undefined {
  switch (verb) {
    case 'v':
      return fmtFloat(f, v, 'g', -1);
    case 'b':
    case 'g':
    case 'G':
    case 'x':
    case 'X':
      return fmtFloat(f, v, verb, -1);
    case 'f':
    case 'e':
    case 'E':
    case 'F':
      return fmtFloat(f, v, verb === 'F' ? 'f' : verb, 6);
  }
  return undefined;
}

class Printer {
  out = '';
  constructor(private readonly typeOf: (v: unknown) => string = typeName) {}

  badVerb(f: Flags, verb: string, arg: unknown, hasArg: boolean): void {
    this.out += '%!' + verb + '(';
    if (hasArg && arg !== null && arg !== undefined) {
      this.out += this.typeOf(arg) + '=';
      this.printArg(f, arg, 'v', 0);
    } else this.out += '<nil>';
    this.out += ')';
  }

  /** One operand; depth > 0 means it is an element of a slice or map. */
  printArg(f: Flags, arg: unknown, verb: string, depth: number): void {
    if (arg === null || arg === undefined) {
      if (depth > 0) {
        this.out += f.sharpV ? 'interface {}(nil)' : '<nil>';
        return;
      }
      if (verb === 'T' || verb === 'v') this.out += padSpaces(f, '<nil>');
      else this.badVerb(f, verb, arg, false);
      return;
    }
    if (verb === 'T') {
      this.out += pad(f, this.typeOf(arg));
      return;
    }
    let s: string | undefined;
    switch (kindOf(arg)) {
      case 'bool':
        if (verb === 't' || verb === 'v') s = pad(f, String(arg));
        break;
      case 'int':
        s = fmtInt(f, BigInt(arg as number | bigint), verb);
        break;
      case 'float':
        s = fmtFloatVerb(f, numberOf(arg), verb);
        break;
      case 'string':
        s = fmtString(f, arg as string, verb);
        break;
      case 'slice':
        this.printSlice(f, arg as unknown[], verb, depth);
        return;
      case 'map':
        this.printMap(f, arg as Record<string, unknown>, verb, depth);
        return;
      case 'object':
        s = verb === 'v' || verb === 's' ? pad(f, (arg as GoObject).format()) : undefined;
        break;
      case 'func':
        s = verb === 'v' || verb === 'p' ? '0x1' : undefined;
        break;
    }
    if (s === undefined) this.badVerb(f, verb, arg, true);
    else this.out += s;
  }

  printSlice(f: Flags, arr: ArrayLike<unknown>, verb: string, depth: number): void {
    if (arr instanceof Uint8Array && (verb === 's' || verb === 'q' || verb === 'x' || verb === 'X')) {
      this.out += fmtString(f, new TextDecoder().decode(arr), verb) ?? '';
      return;
    }
    if (f.sharpV) {
      this.out += this.typeOf(arr) + '{';
      for (let i = 0; i < arr.length; i++) {
        if (i > 0) this.out += ', ';
        this.printArg(f, arr[i], verb, depth + 1);
      }
      this.out += '}';
      return;
    }
    this.out += '[';
    for (let i = 0; i < arr.length; i++) {
      if (i > 0) this.out += ' ';
      this.printArg(f, arr[i], verb, depth + 1);
    }
    this.out += ']';
  }

  printMap(f: Flags, map: Record<string, unknown>, verb: string, depth: number): void {
    const keys = Object.keys(map).sort(compareCodepoints);
    this.out += f.sharpV ? this.typeOf(map) + '{' : 'map[';
    keys.forEach((k, i) => {
      if (i > 0) this.out += f.sharpV ? ', ' : ' ';
      this.printArg(f, k, verb, depth + 1);
      this.out += ':';
      this.printArg(f, map[k], verb, depth + 1);
    });
    this.out += f.sharpV ? '}' : ']';
  }
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly unknown[]): string {
  const p = new Printer();
  let prevString = false;
  args.forEach((arg, i) => {
    const isString = typeof arg === 'string';
    if (i > 0 && !isString && !prevString) p.out += ' ';
    p.printArg(noFlags(), arg, 'v', 0);
    prevString = isString;
  });
  return p.out;
}

/** fmt.Sprintln: always spaces, then a newline. */
export function sprintln(args: readonly unknown[]): string {
  const p = new Printer();
  args.forEach((arg, i) => {
    if (i > 0) p.out += ' ';
    p.printArg(noFlags(), arg, 'v', 0);
  });
  return p.out + '\n';
}

/** %v of one value. */
export function formatValue(v: unknown): string {
  const p = new Printer();
  p.printArg(noFlags(), v, 'v', 0);
  return p.out;
}

function isInt(v: unknown): boolean {
  return kindOf(v) === 'int';
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly unknown[]): string {
  const p = new Printer();
  let argNum = 0;
  let reordered = false;
  let goodArgNum = true;
  const end = format.length;
  let i = 0;

  // Parses "[n]" at i; returns the new arg index (0-based) or undefined when absent.
  const argNumber = (): void => {
    if (i >= end || format[i] !== '[') return;
    reordered = true;
    const close = format.indexOf(']', i + 1);
    if (close < 0) {
      goodArgNum = false;
      return;
    }
    const text = format.slice(i + 1, close);
    i = close + 1;
    if (!/^[0-9]+$/.test(text)) {
      goodArgNum = false;
      return;
    }
    const n = Number(text) - 1;
    if (n >= 0 && n < args.length) {
      argNum = n;
      goodArgNum = true;
    } else goodArgNum = false;
  };
  // Go's parsenum: a number over 1e6 is "crazy long" and swallows the rest of the format.
  const parseNum = (): number | undefined => {
    const m = /^[0-9]+/.exec(format.slice(i, i + 16));
    if (!m) return undefined;
    if (m[0].length > 7 || Number(m[0]) > 1e6) {
      i = end;
      return undefined;
    }
    i += m[0].length;
    return Number(m[0]);
  };
  const tooLarge = (n: number) => n > 1e6 || n < -1e6;

  while (i < end) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      p.out += format.slice(i);
      break;
    }
    p.out += format.slice(i, pct);
    i = pct + 1;
    const f = noFlags();
    flags: while (i < end) {
      switch (format[i]) {
        case '#':
          f.sharp = true;
          break;
        case '0':
          f.zero = !f.minus;
          break;
        case '+':
          f.plus = true;
          break;
        case '-':
          f.minus = true;
          f.zero = false;
          break;
        case ' ':
          f.space = true;
          break;
        default:
          break flags;
      }
      i++;
    }
    argNumber();
    let widthBad = false;
    if (i < end && format[i] === '*') {
      i++;
      if (goodArgNum && argNum < args.length && isInt(args[argNum]) && !tooLarge(Number(args[argNum]))) {
        let w = Number(args[argNum]);
        if (w < 0) {
          f.minus = true;
          f.zero = false;
          w = -w;
        }
        f.wid = w;
      } else widthBad = true;
      argNum++;
      reordered = false;
      if (widthBad) p.out += '%!(BADWIDTH)';
    } else {
      f.wid = parseNum();
    }
    if (i + 1 <= end && format[i] === '.') {
      i++;
      argNumber();
      if (i < end && format[i] === '*') {
        i++;
        if (
          goodArgNum &&
          argNum < args.length &&
          isInt(args[argNum]) &&
          Number(args[argNum]) >= 0 &&
          !tooLarge(Number(args[argNum]))
        ) {
          f.prec = Number(args[argNum]);
        } else {
          p.out += '%!(BADPREC)';
        }
        argNum++;
        reordered = false;
      } else {
        f.prec = parseNum() ?? 0;
      }
    }
    if (!reordered || !goodArgNum) argNumber();
    if (i >= end) {
      p.out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      p.out += '%';
      continue;
    }
    if (!goodArgNum) {
      p.out += '%!' + verb + '(BADINDEX)';
      continue;
    }
    if (argNum >= args.length) {
      p.out += '%!' + verb + '(MISSING)';
      continue;
    }
    if (verb === 'v') {
      if (f.sharp) {
        f.sharp = false;
        f.sharpV = true;
      }
      if (f.plus) {
        f.plus = false;
        f.plusV = true;
      }
    }
    const arg = args[argNum++];
    p.printArg(f, arg, verb, 0);
  }
  if (!reordered && argNum < args.length) {
    p.out += '%!(EXTRA ';
    args.slice(argNum).forEach((arg, k) => {
      if (k > 0) p.out += ', ';
      if (arg === null || arg === undefined) p.out += '<nil>';
      else {
        p.out += typeName(arg) + '=';
        p.printArg(noFlags(), arg, 'v', 0);
      }
    });
    p.out += ')';
  }
  return p.out;
}
