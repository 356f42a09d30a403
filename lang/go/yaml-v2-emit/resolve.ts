/**
 * go-yaml v2's implicit typing of plain scalars (resolve.go), reduced to the
 * question its encoder asks: "would this string, written unquoted, read back
 * as something other than a string?". If yes, the encoder double-quotes it.
 * Invariants: follows YAML 1.1 as go-yaml v2 does (y/n/on/off are booleans,
 * 0777 is octal, 1_000 is an int, date-like strings are timestamps), checks
 * Go's strconv ranges (int64, uint64, float64 overflow) exactly with BigInt,
 * and never consults the host's Date parser.
 */

import { isGoYamlTimestamp, resolvePlain } from '../yaml-v2/resolve.js';

export { isGoYamlTimestamp };

/** True when go-yaml v2 would read the unquoted text s as a non-string (bool, null, int, float, timestamp, merge). */
export function resolvesToNonString(s: string): boolean {
  return resolvePlain(s).tag !== 'str';
}

const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** YAML 1.1 sexagesimal numbers: go-yaml v2 does not parse them but still quotes them on output. */
export function isBase60Float(s: string): boolean {
  return BASE60_FLOAT.test(s);
}
