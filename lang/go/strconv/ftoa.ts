/**
 * float64 → text exactly as Go's strconv.FormatFloat(v, fmt, prec, 64).
 * Shortest digits come from JS (both Go and JS produce the shortest string
 * that round-trips); fixed precisions are rounded from the exact binary value
 * with Go's round-half-even, so `%.0f` of 2.5 is "2" like Go (JS toFixed says "3").
 */

interface Digits {
  /** Significant digits without leading or trailing zeros ("" for zero). */
  d: string;
  /** Decimal point position: value = 0.d × 10^dp. */
  dp: number;
}

function shortestDigits(v: number, bitSize: 32 | 64): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const [mant, exp] = shortestExponential(Math.abs(v), bitSize).split('e') as [string, string];
  const d = mant.replace('.', '').replace(/0+$/, '');
  return { d, dp: Number(exp) + 1 };
}

/** JS's toExponential gives float64's shortest round-trip digits; float32's are the fewest that survive Math.fround. */
function shortestExponential(a: number, bitSize: 32 | 64): string {
  if (bitSize === 64) return a.toExponential();
  let t = '';
  for (let p = 1; p <= 9; p++) {
    t = a.toExponential(p - 1);
    if (Math.fround(Number(t)) === a) break;
  }
  return t;
}

/** The exact decimal expansion of a finite double. */
function exactDigits(v: number): Digits {
  if (v === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(v));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  let s: string;
  let dp: number;
  if (exp >= 0) {
    s = (mant << BigInt(exp)).toString();
    dp = s.length;
  } else {
    s = (mant * 5n ** BigInt(-exp)).toString();
    dp = s.length + exp;
  }
  const lead = s.match(/^0*/)![0].length;
  s = s.slice(lead).replace(/0+$/, '');
  return { d: s, dp: dp - lead };
}

/** Rounds to n significant digits, ties to even (Go's decimal.Round on an exact value). */
function roundTo(x: Digits, n: number): Digits {
  if (n < 0) return { d: '', dp: 0 };
  if (n >= x.d.length) return x;
  const next = x.d.charCodeAt(n) - 48;
  let up: boolean;
  if (next === 5 && n + 1 === x.d.length) up = n > 0 && (x.d.charCodeAt(n - 1) - 48) % 2 === 1;
  else up = next >= 5;
  if (!up) return { d: x.d.slice(0, n).replace(/0+$/, ''), dp: n === 0 ? 0 : x.dp };
  const digits = x.d.slice(0, n).split('');
  let i = n - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return { d: '1', dp: x.dp + 1 };
  digits[i] = String.fromCharCode(digits[i]!.charCodeAt(0) + 1);
  return { d: digits.slice(0, i + 1).join(''), dp: x.dp };
}

function digitAt(x: Digits, i: number): string {
  return i >= 0 && i < x.d.length ? x.d[i]! : '0';
}

function fmtE(neg: boolean, x: Digits, prec: number, e: string): string {
  let out = neg ? '-' : '';
  out += x.d.length ? x.d[0] : '0';
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) out += digitAt(x, i);
  }
  const exp = x.d.length === 0 ? 0 : x.dp - 1;
  const abs = Math.abs(exp);
  return out + e + (exp < 0 ? '-' : '+') + (abs < 10 ? '0' : '') + abs;
}

function fmtF(neg: boolean, x: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (x.dp > 0) {
    for (let i = 0; i < x.dp; i++) out += digitAt(x, i);
  } else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 0; i < prec; i++) out += digitAt(x, x.dp + i);
  }
  return out;
}

/**
 * strconv.FormatFloat(v, fmt, prec, bitSize) for fmt in e E f F g G x X b.
 * With bitSize 32, v is rounded to float32 first and the shortest digits are
 * float32's (go-yaml's float map keys); 'b' and 'x' always show float64 bits.
 */
export function formatFloat(v: number, fmt: string, prec: number, bitSize: 32 | 64 = 64): string {
  if (bitSize === 32) v = Math.fround(v);
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (fmt === 'x' || fmt === 'X') return formatHexFloat(v, prec, fmt === 'X');
  if (fmt === 'b') return formatBinaryFloat(v);
  const neg = v < 0 || Object.is(v, -0);
  const shortest = prec < 0;
  let x: Digits;
  if (shortest) {
    x = shortestDigits(v, bitSize);
  } else {
    const exact = exactDigits(v);
    switch (fmt) {
      case 'e':
      case 'E':
        x = roundTo(exact, prec + 1);
        break;
      case 'f':
      case 'F':
        x = roundTo(exact, exact.dp + prec);
        break;
      default:
        if (prec === 0) prec = 1;
        x = roundTo(exact, prec);
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, x, shortest ? Math.max(x.d.length - 1, 0) : prec, fmt);
    case 'f':
    case 'F':
      return fmtF(neg, x, shortest ? Math.max(x.d.length - x.dp, 0) : prec);
    default: {
      let eprec = prec;
      const nd = x.d.length;
      if (eprec > nd && nd >= x.dp) eprec = nd;
      if (shortest) eprec = 6;
      const exp = x.dp - 1;
      if (nd !== 0 && (exp < -4 || exp >= eprec)) {
        let p = prec;
        if (shortest || p > nd) p = nd;
        return fmtE(neg, x, p - 1, fmt === 'G' ? 'E' : 'e');
      }
      let p = prec;
      if (shortest || p > x.dp) p = nd;
      return fmtF(neg, x, Math.max(p - x.dp, 0));
    }
  }
}

function floatBits(v: number): { neg: boolean; mant: bigint; exp: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, v);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp = biased - 1075;
  if (biased === 0) exp = -1074;
  else mant |= 1n << 52n;
  return { neg: hi >>> 31 === 1, mant, exp };
}

/** strconv 'b': decimal mantissa "p" binary exponent. */
function formatBinaryFloat(v: number): string {
  const { neg, mant, exp } = floatBits(v);
  return `${neg ? '-' : ''}${mant}p${exp >= 0 ? '+' : ''}${exp}`;
}

/** strconv 'x': -0x1.8p+01 style; prec < 0 means shortest. */
function formatHexFloat(v: number, prec: number, upper: boolean): string {
  const { neg, mant: m0, exp: e0 } = floatBits(v);
  let mant = m0;
  let exp = e0;
  if (mant === 0n) exp = 0;
  else {
    // Normalise so the leading 1 sits at bit 60 (1 + 15 hex digits of fraction).
    while (mant < 1n << 60n) {
      mant <<= 1n;
      exp--;
    }
    exp += 60;
  }
  // mant now has bit 60 set: 1.xxxxxxxxxxxxxxx with 60 fraction bits = 15 hex digits.
  let frac = mant & ((1n << 60n) - 1n);
  let lead = mant === 0n ? 0n : 1n;
  let digits = 15;
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(4 * (15 - prec));
    const half = 1n << (shift - 1n);
    const rem = frac & ((1n << shift) - 1n);
    frac >>= shift;
    if (rem > half || (rem === half && (frac & 1n) === 1n)) {
      frac += 1n;
      if (frac >> BigInt(4 * prec) !== 0n) {
        frac = 0n;
        lead = 1n;
        exp++;
      }
    }
    digits = prec;
  }
  let hex = digits > 0 ? frac.toString(16).padStart(digits, '0') : '';
  if (prec < 0) hex = hex.replace(/0+$/, '');
  else if (prec > 15) hex = hex.padEnd(prec, '0');
  const absExp = Math.abs(exp);
  let out = `${neg ? '-' : ''}0x${lead}${hex ? '.' + hex : ''}p${exp < 0 ? '-' : '+'}${absExp < 10 ? '0' : ''}${absExp}`;
  if (upper) out = out.toUpperCase();
  return out;
}
