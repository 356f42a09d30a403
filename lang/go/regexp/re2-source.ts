/**
 * Writes a parsed RE2 expression back as RE2 source for the linear-time
 * engine (re2js), in a canonical form that leaves the engine nothing to
 * interpret: literals and classes are explicit code point ranges (case
 * folding already resolved by our parser; Unicode properties by name, as Go
 * writes them), `.`/`^`/`$` carry their (?s)/(?m) meaning inline, and
 * greediness is on each repetition. So the parser alone decides what a pattern means and which
 * patterns are errors; the engine only matches.
 */

import type { ClassSet, Re2Node } from './re2-ast.js';
import { cleanRanges, foldOrbit } from './re2-classes.js';

function rune(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))
    return String.fromCodePoint(cp);
  return `\\x{${cp.toString(16)}}`;
}

function rangeText([lo, hi]: [number, number]): string {
  return lo === hi ? rune(lo) : `${rune(lo)}-${rune(hi)}`;
}

function rangesSource(ranges: [number, number][], negated: boolean, properties: string[] = []): string {
  // RE2 has no empty class literal: the empty set and "anything" are written as each other's negation.
  if (ranges.length === 0 && properties.length === 0) return negated ? `[\\x{0}-\\x{10ffff}]` : `[^\\x{0}-\\x{10ffff}]`;
  return `[${negated ? '^' : ''}${ranges.map(rangeText).join('')}${properties.join('')}]`;
}

function classSource(set: ClassSet, negated: boolean): string {
  return rangesSource(set.ranges, negated, set.properties);
}

const ASSERTIONS = {
  beginText: '\\A',
  endText: '\\z',
  beginLine: '(?m:^)',
  endLine: '(?m:$)',
  wordBoundary: '\\b',
  noWordBoundary: '\\B',
} as const;

export function toRe2Source(node: Re2Node): string {
  switch (node.type) {
    case 'empty':
      return '(?:)';
    case 'literal':
      return node.fold
        ? rangesSource(cleanRanges(foldOrbit(node.codePoint).map((c) => [c, c])), false)
        : rune(node.codePoint);
    case 'class':
      return classSource(node.set, node.negated);
    case 'anyChar':
      return node.matchesNewline ? '(?s:.)' : '[^\\n]';
    case 'assert':
      return ASSERTIONS[node.kind];
    case 'group':
      return `(${toRe2Source(node.body)})`;
    case 'concat':
      return node.items.map(toRe2Source).join('');
    case 'alternate':
      return `(?:${node.items.map(toRe2Source).join('|')})`;
    case 'repeat': {
      return `(?:${toRe2Source(node.body)})` + repeatOperator(node.min, node.max, node.greedy);
    }
  }
}

/** The quantifier of a repeat (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, lazy with `?`): RE2 and JavaScript spell them alike. */
export function repeatOperator(min: number, max: number, greedy: boolean): string {
  let op: string;
  if (min === 0 && max === -1) op = '*';
  else if (min === 1 && max === -1) op = '+';
  else if (min === 0 && max === 1) op = '?';
  else if (max === -1) op = `{${min},}`;
  else if (min === max) op = `{${min}}`;
  else op = `{${min},${max}}`;
  return op + (greedy ? '' : '?');
}
