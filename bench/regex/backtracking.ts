/**
 * The previous engine behind the GoRegexp interface, for the bench only: our
 * RE2 parser, the old translator to JS source, and V8's backtracking RegExp
 * (the `d` flag gives group indices). Same Go loops on top, so the bench
 * compares engines and nothing else.
 */
import { type GoRegexp } from '../../lang/go/regexp/go-regexp.js';
import { parseRe2 } from '../../lang/go/regexp/re2-parse.js';
import { toJsSource } from './re2-to-js.js';

export function compileBacktracking(pattern: string): GoRegexp {
  const parsed = parseRe2(pattern);
  const regex = new RegExp(toJsSource(parsed.root), 'gud');
  return {
    pattern,
    groupNames: parsed.groupNames,
    test: (subject) => {
      regex.lastIndex = 0;
      return regex.test(subject);
    },
    exec: (subject, from) => {
      regex.lastIndex = from;
      const m = regex.exec(subject);
      return m ? m.indices!.flatMap((pair) => pair ?? [-1, -1]) : null;
    },
  };
}
