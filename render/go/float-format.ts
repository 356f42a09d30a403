/**
 * Go's float64 formatting, reproduced exactly: strconv.FormatFloat with the
 * 'e', 'f' and 'g' verbs (shortest or fixed precision), encoding/json's
 * number rule, and go-jsonnet's number unparsing. Invariants: digit strings
 * come either from JS's shortest round-trip digits (the same digits Go's
 * shortest mode picks) or from the exact binary value expanded with BigInt
 * and rounded half-to-even the way Go's decimal type rounds, so no result
 * depends on the host's printf.
 */

/** A positive decimal 0.d1d2d3... × 10^dp; digits has no leading or trailing zeros ('' for zero). */
interface Decimal {
  digits: string;
  dp: number;
}

/** The shortest digits that round-trip to |x| (x finite). */
function shortestDecimal(x: number): Decimal {
  const a = Math.abs(x);
  if (a === 0) return { digits: '', dp: 0 };
  const s = a.toExponential(); // "d.ddde±N", shortest round-trip digits
  const ePos = s.indexOf('e');
  const digits = s.slice(0, ePos).replace('.', '').replace(/0+$/, '');
  return { digits, dp: Number(s.slice(ePos + 1)) + 1 };
}

/** The exact decimal expansion of |x| (x finite). */
function exactDecimal(x: number): Decimal {
  const a = Math.abs(x);
  if (a === 0) return { digits: '', dp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biasedExp = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (biasedExp === 0) exp2 = -1074;
  else {
    mantissa |= 1n << 52n;
    exp2 = biasedExp - 1075;
  }
  let s: string;
  let dp: number;
  if (exp2 >= 0) {
    s = (mantissa << BigInt(exp2)).toString();
    dp = s.length;
  } else {
    const k = -exp2;
    s = (mantissa * 5n ** BigInt(k)).toString();
    dp = s.length - k;
  }
  return { digits: s.replace(/0+$/, ''), dp };
}

/** Rounds to nd significant digits, half to even (Go's decimal.Round). */
function roundDecimal(d: Decimal, nd: number): Decimal {
  const s = d.digits;
  if (nd < 0 || nd >= s.length) return d;
  let up: boolean;
  if (s[nd] === '5' && nd + 1 === s.length) up = nd > 0 && (s.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = s[nd]! >= '5';
  if (!up) return { digits: s.slice(0, nd).replace(/0+$/, ''), dp: d.dp };
  let i = nd - 1;
  while (i >= 0 && s[i] === '9') i--;
  if (i < 0) return { digits: '1', dp: d.dp + 1 };
  return { digits: s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) + 1), dp: d.dp };
}

function formatE(neg: boolean, d: Decimal, prec: number, verb: 'e'): string {
  let out = neg ? '-' : '';
  out += d.digits.length === 0 ? '0' : d.digits[0];
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) out += i < d.digits.length ? d.digits[i] : '0';
  }
  const exp = d.digits.length === 0 ? 0 : d.dp - 1;
  const absExp = Math.abs(exp);
  return out + verb + (exp < 0 ? '-' : '+') + (absExp < 10 ? '0' : '') + String(absExp);
}

function formatF(neg: boolean, d: Decimal, prec: number): string {
  let out = neg ? '-' : '';
  if (d.dp > 0) {
    for (let i = 0; i < d.dp; i++) out += i < d.digits.length ? d.digits[i] : '0';
  } else out += '0';
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) {
      const j = d.dp + i - 1;
      out += j >= 0 && j < d.digits.length ? d.digits[j] : '0';
    }
  }
  return out;
}

function isNegative(x: number): boolean {
  return x < 0 || Object.is(x, -0);
}

/** strconv.FormatFloat(x, verb, -1, 64): shortest representation. */
export function formatFloatShortest(x: number, verb: 'e' | 'f' | 'g'): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const neg = isNegative(x);
  const d = shortestDecimal(x);
  const nd = d.digits.length;
  switch (verb) {
    case 'e':
      return formatE(neg, d, Math.max(nd - 1, 0), 'e');
    case 'f':
      return formatF(neg, d, Math.max(nd - d.dp, 0));
    case 'g': {
      const exp = d.dp - 1;
      if (exp < -4 || exp >= 6) return formatE(neg, d, nd - 1, 'e');
      return formatF(neg, d, Math.max(nd - d.dp, 0));
    }
  }
}

/** strconv.FormatFloat(x, 'g', prec, 64) for prec > 0 (fmt's "%.<prec>g"). */
export function formatFloatPrecisionG(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const neg = isNegative(x);
  const d = roundDecimal(exactDecimal(x), prec);
  const nd = d.digits.length;
  let eprec = prec;
  if (eprec > nd && nd >= d.dp) eprec = nd;
  const exp = d.dp - 1;
  if (exp < -4 || exp >= eprec) return formatE(neg, d, Math.min(prec, nd) - 1, 'e');
  const p = prec > d.dp ? nd : prec;
  return formatF(neg, d, Math.max(p - d.dp, 0));
}

/** encoding/json's float64 encoding: 'f', or 'e' below 1e-6 / from 1e21, with e-07 shortened to e-7. */
export function formatJsonNumber(x: number): string {
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) {
    return formatFloatShortest(x, 'e').replace(/e([-+])0(\d)$/, 'e$1$2');
  }
  return formatFloatShortest(x, 'f');
}
