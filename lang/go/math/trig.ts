/**
 * The few math functions whose last bit differs between V8 (fdlibm) and Go's
 * math package, which go-jsonnet (so kubecfg) uses: sin, cos, tan, asin,
 * acos, atan and atan2 (pow: pow.ts). Go computes them with the
 * Cephes algorithms (S. L. Moshier's Cephes Math Library 2.8, "may be used
 * freely"); this module does the same so std.cos(5) prints the digits go-jsonnet prints. Arguments of
 * trigonometric functions at or above 2^29 need Payne–Hanek reduction, which
 * we leave to V8 (docs/jsonnet-conformance.md). Pure: no state.
 */

const PI4_HI = 7.85398125648498535156e-1; // pi/4 split in three parts for
const PI4_MID = 3.77489470793079817668e-8; // a reduction that stays exact
const PI4_LO = 2.69515142907905952645e-15; // for arguments below 2^29
const REDUCE_LIMIT = 2 ** 29;

const SIN_COEF = [
  1.5896230157654656806e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6, -1.98412698295895385996e-4,
  8.33333333332211858878e-3, -1.66666666666666307295e-1,
];
const COS_COEF = [
  -1.135853652138768173e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7, 2.48015872888517045348e-5,
  -1.38888888888730564116e-3, 4.16666666666665929218e-2,
];
const TAN_P = [-1.30936939181383777646e4, 1.1535166483858741614e6, -1.79565251976484877988e7];
const TAN_Q = [
  1.36812963470692954678e4, -1.32089234440210967447e6, 2.50083801823357915839e7, -5.38695755929454629881e7,
];
const ATAN_P = [
  -8.750608600031904122785e-1, -1.615753718733365076637e1, -7.50085579231470466734e1, -1.22886668449013617341e2,
  -6.485021904942025371773e1,
];
const ATAN_Q = [
  2.485846490142306297962e1, 1.650270098316988542046e2, 4.328810604912902668951e2, 4.853903996359136964868e2,
  1.945506571482613964425e2,
];
const PIO2_EXTRA = 6.12323399573676588613e-17; // pi/2 minus its double
const TAN_3PI_8 = 2.4142135623730950488;

/** Horner's rule, highest coefficient first; `monic` adds a leading 1. */
function horner(coef: readonly number[], z: number, monic = false): number {
  let acc = monic ? 1 : 0;
  for (const c of coef) acc = acc * z + c;
  return acc;
}

/** Octant of |x| (made even) and x reduced into [-pi/4, pi/4]. */
function reduce(ax: number): [number, number] {
  let j = Math.floor(ax * (4 / Math.PI));
  if (j % 2 === 1) j++;
  const z = ax - j * PI4_HI - j * PI4_MID - j * PI4_LO;
  return [j, z];
}

function sinKernel(z: number): number {
  const zz = z * z;
  return z + z * zz * horner(SIN_COEF, zz);
}

function cosKernel(z: number): number {
  const zz = z * z;
  return 1 - 0.5 * zz + zz * zz * horner(COS_COEF, zz);
}

export function goSin(x: number): number {
  if (x === 0 || Number.isNaN(x)) return x;
  if (!Number.isFinite(x) || Math.abs(x) >= REDUCE_LIMIT) return Math.sin(x);
  const [j0, z] = reduce(Math.abs(x));
  let j = j0 % 8;
  let negative = x < 0;
  if (j > 3) {
    negative = !negative;
    j -= 4;
  }
  const y = j === 1 || j === 2 ? cosKernel(z) : sinKernel(z);
  return negative ? -y : y;
}

export function goCos(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= REDUCE_LIMIT) return Math.cos(x);
  const [j0, z] = reduce(Math.abs(x));
  let j = j0 % 8;
  let negative = false;
  if (j > 3) {
    negative = true;
    j -= 4;
  }
  if (j > 1) negative = !negative;
  const y = j === 1 || j === 2 ? sinKernel(z) : cosKernel(z);
  return negative ? -y : y;
}

export function goTan(x: number): number {
  if (x === 0 || Number.isNaN(x)) return x;
  if (!Number.isFinite(x) || Math.abs(x) >= REDUCE_LIMIT) return Math.tan(x);
  const [j, z] = reduce(Math.abs(x));
  const zz = z * z;
  let y = zz > 1e-14 ? z + z * ((zz * horner(TAN_P, zz)) / horner(TAN_Q, zz, true)) : z;
  if (j % 4 === 2) y = -1 / y;
  return x < 0 ? -y : y;
}

/** atan on [0, 0.66]: x + x³·P(x²)/Q(x²). */
function atanSmall(x: number): number {
  const z = x * x;
  return x * ((z * horner(ATAN_P, z)) / horner(ATAN_Q, z, true)) + x;
}

/** atan of a non-negative argument, folded into [0, 0.66]. */
function atanPositive(x: number): number {
  if (x <= 0.66) return atanSmall(x);
  if (x > TAN_3PI_8) return Math.PI / 2 - atanSmall(1 / x) + PIO2_EXTRA;
  return Math.PI / 4 + atanSmall((x - 1) / (x + 1)) + 0.5 * PIO2_EXTRA;
}

export function goAtan(x: number): number {
  if (x === 0 || Number.isNaN(x)) return x;
  return x > 0 ? atanPositive(x) : -atanPositive(-x);
}

export function goAsin(x: number): number {
  if (x === 0 || Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax > 1) return NaN;
  const c = Math.sqrt(1 - ax * ax);
  const r = ax > 0.7 ? Math.PI / 2 - atanPositive(c / ax) : atanPositive(ax / c);
  return x < 0 ? -r : r;
}

export function goAcos(x: number): number {
  return Math.PI / 2 - goAsin(x);
}

/** Go's math.Atan2: IEEE special cases, otherwise atan(y/x) moved into the right quadrant. */
export function goAtan2(y: number, x: number): number {
  if (x === 0 || y === 0 || !Number.isFinite(x) || !Number.isFinite(y)) return Math.atan2(y, x);
  const q = goAtan(y / x);
  if (x < 0) return q <= 0 ? q + Math.PI : q - Math.PI;
  return q;
}
