/**
 * Writes a parsed RE2 expression back as RE2 source for the linear-time
 * engine (re2js), in a canonical form that leaves the engine nothing to
 * interpret: every literal and class is explicit code point ranges (case
 * folding and Unicode properties already resolved by our parser's tables),
 * `.`/`^`/`$` carry their (?s)/(?m) meaning inline, and greediness is on each
 * repetition. So the parser alone decides what a pattern means and which
 * patterns are errors; the engine only matches.
 */

import type { ClassSet, Re2Node } from './re2-ast.js';
import { cleanRanges, foldOrbit } from './re2-classes.js';
import { propertyRanges } from './property-ranges.js';

const MAX_RUNE = 0x10ffff;

function rune(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))
    return String.fromCodePoint(cp);
  return `\\x{${cp.toString(16)}}`;
}

function rangesSource(ranges: [number, number][], negated: boolean): string {
  // RE2 has no empty class literal: the empty set and "anything" are written as each other's negation.
  if (ranges.length === 0) return negated ? `[\\x{0}-\\x{${MAX_RUNE.toString(16)}}]` : `[^\\x{0}-\\x{10ffff}]`;
  const body = ranges.map(([lo, hi]) => (lo === hi ? rune(lo) : `${rune(lo)}-${rune(hi)}`)).join('');
  return `[${negated ? '^' : ''}${body}]`;
}

function classRanges(set: ClassSet): [number, number][] {
  if (set.properties.length === 0) return set.ranges;
  return cleanRanges([...set.ranges, ...set.properties.flatMap(propertyRanges)]);
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
      return node.fold ? rangesSource(cleanRanges(foldOrbit(node.codePoint).map((c) => [c, c])), false) : rune(node.codePoint);
    case 'class':
      return rangesSource(classRanges(node.set), node.negated);
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
      const body = `(?:${toRe2Source(node.body)})`;
      let op: string;
      if (node.min === 0 && node.max === -1) op = '*';
      else if (node.min === 1 && node.max === -1) op = '+';
      else if (node.min === 0 && node.max === 1) op = '?';
      else if (node.max === -1) op = `{${node.min},}`;
      else if (node.min === node.max) op = `{${node.min}}`;
      else op = `{${node.min},${node.max}}`;
      return body + op + (node.greedy ? '' : '?');
    }
  }
}
