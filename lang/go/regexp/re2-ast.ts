/**
 * The parsed form of a Go (RE2) regular expression, after Go's parser has
 * applied the flags in scope: case folding and negation are already folded
 * into character classes, `.`/`^`/`$` already know their (?s)/(?m) meaning,
 * and (?U) is already applied to each repetition's greediness.
 */

/** A class as inclusive code point ranges plus Unicode classes the engine's tables hold. */
export interface ClassSet {
  ranges: [number, number][];
  /** RE2 escapes with Go's names, such as `\p{Lu}` or `\P{Greek}`. */
  properties: string[];
}

export type Re2Node =
  | { type: 'empty' }
  | { type: 'literal'; codePoint: number; fold: boolean }
  | { type: 'class'; set: ClassSet; negated: boolean }
  | { type: 'anyChar'; matchesNewline: boolean }
  | { type: 'assert'; kind: 'beginLine' | 'endLine' | 'beginText' | 'endText' | 'wordBoundary' | 'noWordBoundary' }
  | { type: 'group'; capture: number; name: string | undefined; body: Re2Node }
  | { type: 'concat'; items: Re2Node[] }
  | { type: 'alternate'; items: Re2Node[] }
  | { type: 'repeat'; min: number; max: number; greedy: boolean; body: Re2Node };

export interface ParsedRe2 {
  root: Re2Node;
  /** Names of capture groups by number (index 0 is the whole match, ''), as regexp.SubexpNames. */
  groupNames: string[];
}
