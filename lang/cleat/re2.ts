/**
 * RE2 regular expressions for Cleat's built-ins and checker: the shared Go
 * regexp engine of lang/go/regexp (our RE2 parser, rejecting what RE2
 * rejects with Go's error text, and a linear-time matcher). Matching is
 * unanchored, as Go's regexp.MatchString.
 */
import { compileGoRegexp, type GoRegexp } from '../go/regexp/go-regexp.js';

const cache = new Map<string, GoRegexp | string>();

/** Compiles an RE2 pattern, or returns the reason RE2 rejects it. */
export function compileRe2(pattern: string): GoRegexp | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let result: GoRegexp | string;
  try {
    result = compileGoRegexp(pattern);
  } catch (e) {
    result = e instanceof Error ? e.message : String(e);
  }
  if (cache.size > 500) cache.clear();
  cache.set(pattern, result);
  return result;
}
