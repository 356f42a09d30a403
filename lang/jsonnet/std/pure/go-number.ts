/**
 * go-jsonnet's number unparsing, built on Go's strconv (lang/go).
 */
import { formatFloat } from '../../../go/strconv.js';

/**
 * go-jsonnet's unparseNumber (std.toString, '' + n, manifestJson of
 * toString-style output, TOML): integers as `%.0f` (every digit, no
 * exponent), others as `%.17g`.
 */
export function unparseNumber(v: number): string {
  // Safe integers print exactly with String(); only -0 needs its sign kept.
  if (Number.isSafeInteger(v)) return Object.is(v, -0) ? '-0' : String(v);
  if (Number.isFinite(v) && v === Math.floor(v)) return formatFloat(v, 'f', 0);
  return formatFloat(v, 'g', 17);
}
