/**
 * Exact comparison and divisibility of float64 values as the library does
 * them: each number becomes the rational of its shortest decimal text
 * (big.Rat.SetString(fmt.Sprint(v))), so 0.3 is a multiple of 0.1.
 * Invariant: inputs are finite (Jsonnet cannot produce NaN or Infinity).
 */

interface Decimal {
  mantissa: bigint;
  exponent: number;
}

function toDecimal(x: number): Decimal {
  // JS and Go both print the shortest round-tripping digits.
  const [digits = '0', exp = '0'] = String(x).toLowerCase().split('e');
  const dot = digits.indexOf('.');
  const fraction = dot < 0 ? 0 : digits.length - dot - 1;
  const mantissa = BigInt(digits.replace('.', ''));
  return { mantissa, exponent: Number(exp) - fraction };
}

/** Both as integers over the same power of ten. */
function align(a: number, b: number): [bigint, bigint] {
  const da = toDecimal(a);
  const db = toDecimal(b);
  const e = Math.min(da.exponent, db.exponent);
  return [da.mantissa * 10n ** BigInt(da.exponent - e), db.mantissa * 10n ** BigInt(db.exponent - e)];
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimal(a: number, b: number): number {
  if (a === b) return 0;
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** True when a / b is an integer (b is non-zero: the schema pre-pass requires multipleOf > 0). */
export function isMultipleOf(a: number, b: number): boolean {
  const [x, y] = align(a, b);
  return y !== 0n && x % y === 0n;
}
