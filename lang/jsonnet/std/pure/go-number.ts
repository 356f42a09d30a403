/**
 * Number-to-text conversions exactly as Go's fmt/strconv do them, because
 * go-jsonnet prints numbers with `%.0f`, `%.17g`, `%f`, `%v` and
 * `strconv.FormatFloat(v, 'f', -1, 64)`. Rounding is done on the exact binary
 * value with round-half-even (BigInt arithmetic), which JS's toFixed and
 * toPrecision do not do (they round ties up and stop at 1e21).
 * Invariant: inputs are finite unless a function says otherwise.
 */

/** |v| = digits / 10^scale exactly (digits >= 0). */
interface ExactDecimal {
  digits: bigint;
  scale: number;
}

const view = new DataView(new ArrayBuffer(8));

function exactDecimal(v: number): ExactDecimal {
  view.setFloat64(0, Math.abs(v));
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (biased === 0) {
    e2 = -1074;
  } else {
    mant |= 1n << 52n;
    e2 = biased - 1075;
  }
  if (e2 >= 0) return { digits: mant << BigInt(e2), scale: 0 };
  // mant / 2^k == mant * 5^k / 10^k
  const k = -e2;
  return { digits: mant * 5n ** BigInt(k), scale: k };
}

const TEN = 10n;

/** Divides by 10^drop with round-half-even. */
function roundDrop(digits: bigint, drop: number): bigint {
  if (drop <= 0) return digits * TEN ** BigInt(-drop);
  const div = TEN ** BigInt(drop);
  const q = digits / div;
  const r = digits % div;
  const twice = r * 2n;
  if (twice > div || (twice === div && q % 2n === 1n)) return q + 1n;
  return q;
}

function sign(v: number): string {
  return v < 0 || Object.is(v, -0) ? '-' : '';
}

/** Go `%.<prec>f`. */
export function goFixed(v: number, prec: number): string {
  if (!Number.isFinite(v)) return goNonFinite(v);
  const { digits, scale } = exactDecimal(v);
  const q = roundDrop(digits, scale - prec);
  let s = q.toString();
  if (prec > 0) {
    if (s.length <= prec) s = '0'.repeat(prec - s.length + 1) + s;
    s = s.slice(0, s.length - prec) + '.' + s.slice(s.length - prec);
  }
  return sign(v) + s;
}

function goNonFinite(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  return v > 0 ? '+Inf' : '-Inf';
}

function expSuffix(e: number): string {
  const a = Math.abs(e);
  return (e < 0 ? 'e-' : 'e+') + (a < 10 ? '0' + a : String(a));
}

/**
 * Formats significant digits `ds` (no leading zeros, trailing zeros trimmed)
 * whose first digit has decimal exponent `exp`, the way strconv's %g does once
 * the precision decision has been made.
 */
function formatG(neg: string, ds: string, exp: number, eprec: number): string {
  if (exp < -4 || exp >= eprec) {
    const mant = ds.length > 1 ? ds[0] + '.' + ds.slice(1) : ds;
    return neg + mant + expSuffix(exp);
  }
  const dp = exp + 1; // digits before the point
  if (dp <= 0) return neg + '0.' + '0'.repeat(-dp) + ds;
  if (ds.length <= dp) return neg + ds + '0'.repeat(dp - ds.length);
  return neg + ds.slice(0, dp) + '.' + ds.slice(dp);
}

/** Go `%.<prec>g` for finite v (prec >= 1). */
export function goGeneral(v: number, prec: number): string {
  if (!Number.isFinite(v)) return goNonFinite(v);
  if (v === 0) return sign(v) + '0';
  const { digits, scale } = exactDecimal(v);
  let s = digits.toString();
  let exp = s.length - 1 - scale;
  if (s.length > prec) {
    let r = roundDrop(digits, s.length - prec).toString();
    if (r.length > prec) {
      // rounding carried into a new digit (999.. -> 1000..)
      r = r.slice(0, prec);
      exp++;
    }
    s = r;
  }
  s = s.replace(/0+$/, '');
  if (s === '') s = '0';
  // strconv: eprec = prec, lowered to the digit count when all digits are
  // before the point; with trailing zeros trimmed this never changes the
  // fixed/exponent choice for the values we print.
  let eprec = prec;
  if (eprec > s.length && s.length >= exp + 1) eprec = s.length;
  return formatG(sign(v), s, exp, eprec);
}

/** Shortest round-trip digits and exponent of the first digit (v finite, != 0). */
function shortest(v: number): { ds: string; exp: number } {
  const t = Math.abs(v).toExponential(); // shortest round-trip digits
  const ePos = t.indexOf('e');
  const ds = t.slice(0, ePos).replace('.', '');
  return { ds, exp: Number(t.slice(ePos + 1)) };
}

/** Go `%v` of a float64: shortest digits, exponent form when exp < -4 or exp >= 6 (e.g. `1.114112e+06`). */
export function goFloatV(v: number): string {
  if (!Number.isFinite(v)) return goNonFinite(v);
  if (v === 0) return sign(v) + '0';
  const { ds, exp } = shortest(v);
  // strconv with precision -1 decides %e vs %f with eprec = 6.
  return formatG(sign(v), ds, exp, 6);
}

/** Go `strconv.FormatFloat(v, 'f', -1, 64)`: shortest digits, never an exponent. */
export function goShortestFixed(v: number): string {
  if (!Number.isFinite(v)) return goNonFinite(v);
  if (v === 0) return sign(v) + '0';
  const { ds, exp } = shortest(v);
  const dp = exp + 1;
  if (dp <= 0) return sign(v) + '0.' + '0'.repeat(-dp) + ds;
  if (ds.length <= dp) return sign(v) + ds + '0'.repeat(dp - ds.length);
  return sign(v) + ds.slice(0, dp) + '.' + ds.slice(dp);
}

/**
 * go-jsonnet's unparseNumber (std.toString, '' + n, manifestJson of
 * toString-style output, TOML): integers as `%.0f` (every digit, no
 * exponent), others as `%.17g`.
 */
export function unparseNumber(v: number): string {
  // Safe integers print exactly with String(); only -0 needs its sign kept.
  if (Number.isSafeInteger(v)) return Object.is(v, -0) ? '-0' : String(v);
  if (Number.isFinite(v) && v === Math.floor(v)) return goFixed(v, 0);
  return goGeneral(v, 17);
}

/** Go `strconv.FormatFloat(v, 'g', -1, 32)`: shortest float32 digits (YAML float keys). */
export function goFloat32G(v: number): string {
  const f = Math.fround(v);
  if (!Number.isFinite(f)) return goNonFinite(f);
  if (f === 0) return sign(f) + '0';
  let t = '';
  for (let p = 1; p <= 9; p++) {
    t = Math.abs(f).toExponential(p - 1);
    if (Math.fround(Number(t)) === Math.abs(f)) break;
  }
  const ePos = t.indexOf('e');
  const ds = t.slice(0, ePos).replace('.', '').replace(/0+$/, '') || '0';
  return formatG(sign(f), ds, Number(t.slice(ePos + 1)), 6);
}

const bits = new DataView(new ArrayBuffer(8));

/** 2^e for e in the normal range [-1022, 1023], built from its bits. */
function pow2(e: number): number {
  bits.setUint32(0, (e + 1023) << 20);
  bits.setUint32(4, 0);
  return bits.getFloat64(0);
}

/** Go math.Frexp for finite non-zero x: x = m * 2^e with |m| in [0.5, 1). */
function frexp(x: number): [number, number] {
  let e = 0;
  let m = x;
  if (Math.abs(m) < 2.2250738585072014e-308) {
    m *= 2 ** 52;
    e = -52;
  }
  bits.setFloat64(0, m);
  const hi = bits.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  e += biased - 1022;
  bits.setUint32(0, (hi & 0x800fffff) | (1022 << 20));
  return [bits.getFloat64(0), e];
}

/** Go math.Ldexp: m * 2^e with one final rounding. */
function ldexp(m: number, e: number): number {
  if (m === 0 || !Number.isFinite(m)) return m;
  const [fm, fe] = frexp(m);
  let exp = fe + e;
  if (exp > 1024) return m < 0 ? -Infinity : Infinity;
  if (exp >= -1021) return fm * 2 * pow2(exp - 1);
  // subnormal result: scale into range exactly, then round once
  if (exp < -1075 - 52) return m < 0 ? -0 : 0;
  const scaled = fm * pow2(exp + 100); // exact, still normal
  exp = -100;
  return scaled * pow2(exp);
}

/**
 * Go's math.Pow, which std.pow uses and std.format leans on (10^prec,
 * 10^exponent). V8's Math.pow is not correctly rounded (10^-5 comes out as
 * 9.999999999999999e-6), so Go's own method is reproduced: binary powering of
 * the frexp mantissa with the exponent kept apart, reciprocal for negative y.
 */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (y === 1) return x;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === -1 && !Number.isFinite(y)) return 1; // IEEE says NaN; Go says 1
  if (x === 0 || !Number.isFinite(x) || !Number.isFinite(y)) return Math.pow(x, y);
  if (y === 0.5) return Math.sqrt(x);
  if (y === -0.5) return 1 / Math.sqrt(x);
  const ay = Math.abs(y);
  let yi = Math.trunc(ay);
  let yf = ay - yi;
  if (yf !== 0 && x < 0) return NaN;
  if (yi >= 2 ** 63) {
    // |y| huge: the result is 0, 1 or infinite; Math.pow agrees on those.
    return Math.pow(x, y);
  }
  let a1 = 1;
  let ae = 0;
  if (yf !== 0) {
    if (yf > 0.5) {
      yf--;
      yi++;
    }
    a1 = Math.exp(yf * Math.log(x));
  }
  let [x1, xe] = frexp(x);
  for (let i = yi; i !== 0; i = Math.floor(i / 2)) {
    if (xe < -(1 << 12) || 1 << 12 < xe) {
      ae += xe;
      break;
    }
    if (i % 2 === 1) {
      a1 *= x1;
      ae += xe;
    }
    x1 *= x1;
    xe *= 2;
    if (x1 < 0.5) {
      x1 += x1;
      xe--;
    }
  }
  if (y < 0) {
    a1 = 1 / a1;
    ae = -ae;
  }
  return ldexp(a1, ae);
}
