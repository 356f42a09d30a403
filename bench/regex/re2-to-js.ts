/**
 * The previous translator, kept for bench/regex only (it is the baseline the
 * linear engine is measured against; nothing in lang/ uses it any more).
 * Turns a parsed RE2 expression into JS RegExp source for the `u` flag (and
 * no other flag), so that JS's backtracking matcher finds the same leftmost-
 * first matches Go does: `.` is [^\n] or any code point, ^ $ \A \z and the
 * (?m) forms become lookarounds that only look at \n, classes are written out
 * as code point ranges (case folding already applied), every repetition gets
 * a non-capturing group so assertions can be repeated as in Go, and capture
 * groups keep their numbers (names live in ParsedRe2.groupNames).
 */

import type { ClassSet, Re2Node } from '../../lang/go/regexp/re2-ast.js';
import { foldOrbit } from '../../lang/go/regexp/re2-classes.js';
import { repeatOperator } from '../../lang/go/regexp/re2-source.js';

function codePointEscape(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))
    return String.fromCodePoint(cp);
  return `\\u{${cp.toString(16)}}`;
}

function classSource(set: ClassSet, negated: boolean): string {
  const parts = set.ranges.map(([lo, hi]) =>
    lo === hi ? codePointEscape(lo) : `${codePointEscape(lo)}-${codePointEscape(hi)}`,
  );
  return `[${negated ? '^' : ''}${parts.join('')}${set.properties.join('')}]`;
}

const ASSERTIONS = {
  beginText: '(?<![\\s\\S])',
  endText: '(?![\\s\\S])',
  beginLine: '(?<![^\\n])',
  endLine: '(?![^\\n])',
  wordBoundary: '\\b',
  noWordBoundary: '\\B',
} as const;

export function toJsSource(node: Re2Node): string {
  switch (node.type) {
    case 'empty':
      return '(?:)';
    case 'literal':
      return node.fold ? foldedLiteral(node.codePoint) : codePointEscape(node.codePoint);
    case 'class':
      return classSource(node.set, node.negated);
    case 'anyChar':
      return node.matchesNewline ? '[\\s\\S]' : '[^\\n]';
    case 'assert':
      return ASSERTIONS[node.kind];
    case 'group':
      return `(${toJsSource(node.body)})`;
    case 'concat':
      return node.items.map(toJsSource).join('');
    case 'alternate':
      return `(?:${node.items.map(toJsSource).join('|')})`;
    case 'repeat': {
      return `(?:${toJsSource(node.body)})` + repeatOperator(node.min, node.max, node.greedy);
    }
  }
}

function foldedLiteral(cp: number): string {
  return `[${foldOrbit(cp).map(codePointEscape).join('')}]`;
}
