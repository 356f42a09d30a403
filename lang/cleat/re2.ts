/**
 * RE2 regular expressions for Cleat's built-ins and checker: the shared Go
 * regexp engine of lang/common/re2 (RE2 syntax translated to a JS RegExp,
 * rejecting what RE2 rejects, with Go's error text). Matching is unanchored,
 * as Go's regexp.MatchString. The RegExp handed out is non-global, so `test`
 * keeps no state between calls.
 */
import { compileGoRegexp } from '../common/re2/go-regexp.js';

const cache = new Map<string, RegExp | string>();

/** Compiles an RE2 pattern, or returns the reason RE2 rejects it. */
export function compileRe2(pattern: string): RegExp | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let result: RegExp | string;
  try {
    result = new RegExp(compileGoRegexp(pattern).regex.source, 'u');
  } catch (e) {
    result = e instanceof Error ? e.message : String(e);
  }
  if (cache.size > 500) cache.clear();
  cache.set(pattern, result);
  return result;
}
