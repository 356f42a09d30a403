/**
 * Go's math.Pow, math.Frexp and math.Ldexp, bit for bit: V8's Math.pow is
 * not correctly rounded (10^-5 comes out as 9.999999999999999e-6), so Go's
 * own method is reproduced.
 */

const bits = new DataView(new ArrayBuffer(8));

/** 2^e for e in the normal range [-1022, 1023], built from its bits. */
function pow2(e: number): number {
  bits.setUint32(0, (e + 1023) << 20);
  bits.setUint32(4, 0);
  return bits.getFloat64(0);
}

/** math.Frexp: x = m * 2^e with |m| in [0.5, 1); zero and non-finite x come back as they are, with e = 0. */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
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
export function ldexp(m: number, e: number): number {
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
