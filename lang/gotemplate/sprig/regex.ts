/**
 * Sprig regex functions (https://masterminds.github.io/sprig/strings.html#regexmatch):
 * each is one call of Go's regexp package (lang/go/regexp, linear-time and
 * shared with kubecfg's natives and Cleat): MatchString, FindAllString,
 * FindString, ReplaceAllString, ReplaceAllLiteralString, Split, QuoteMeta.
 */

import { type FuncDef, pure } from '../function.js';
import { tagType } from '../value.js';
import {
  compileGoRegexp,
  goFindAll,
  goMatchString,
  goQuoteMeta,
  goReplaceAll,
  goSplit,
} from '../../go/regexp/go-regexp.js';
import { wellFormed } from '../../common/well-formed.js';

/** Regexp.FindAllString(s, n). */
function findAllStrings(pattern: string, source: string, n: number): string[] {
  const s = wellFormed(source);
  return goFindAll(compileGoRegexp(pattern), s, n).map((m) => s.slice(m[0], m[1]));
}

const strs = (a: string[]) => tagType(a, '[]string');

/** Plain variants fail the template on a bad pattern, as Sprig's regexp.MustCompile panics. */
export const regexFuncs: Record<string, FuncDef> = {
  regexMatch: pure(['string', 'string'], (re: string, s: string) => {
    try {
      return goMatchString(re, s);
    } catch {
      return false;
    }
  }),
  mustRegexMatch: pure(['string', 'string'], goMatchString),
  regexFindAll: pure(['string', 'string', 'int'], (re: string, s: string, n: number) => strs(findAllStrings(re, s, n))),
  mustRegexFindAll: pure(['string', 'string', 'int'], (re: string, s: string, n: number) =>
    strs(findAllStrings(re, s, n)),
  ),
  regexFind: pure(['string', 'string'], (re: string, s: string) => findAllStrings(re, s, 1)[0] ?? ''),
  mustRegexFind: pure(['string', 'string'], (re: string, s: string) => findAllStrings(re, s, 1)[0] ?? ''),
  regexReplaceAll: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    goReplaceAll(re, s, r, false),
  ),
  mustRegexReplaceAll: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    goReplaceAll(re, s, r, false),
  ),
  regexReplaceAllLiteral: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    goReplaceAll(re, s, r, true),
  ),
  mustRegexReplaceAllLiteral: pure(['string', 'string', 'string'], (re: string, s: string, r: string) =>
    goReplaceAll(re, s, r, true),
  ),
  regexSplit: pure(['string', 'string', 'int'], (re: string, s: string, n: number) => strs(goSplit(re, s, n))),
  mustRegexSplit: pure(['string', 'string', 'int'], (re: string, s: string, n: number) => strs(goSplit(re, s, n))),
  regexQuoteMeta: pure(['string'], goQuoteMeta),
};
