/**
 * The formatter's fodder model (whitespace and comments between tokens), as
 * jsonnetfmt sees it. A fodder is a list of elements of three kinds:
 *  - lineEnd: an optional `//`/`#` comment ending a line, then a newline;
 *  - interstitial: a `/* *\/` comment inside a line (no blanks, no indent);
 *  - paragraph: comment lines on lines of their own, then a newline.
 * lineEnd and paragraph carry `blanks` (empty lines after) and `indent` (of the
 * next line). Invariant: an interstitial has exactly one comment line and no
 * blanks/indent; a lineEnd has at most one comment; a paragraph at least one.
 */

export type FodderKind = 'lineEnd' | 'interstitial' | 'paragraph';

export interface FodderElement {
  kind: FodderKind;
  blanks: number;
  indent: number;
  /** Never mutated (elements moved between fodders may share it): replace it instead. */
  comment: readonly string[];
}

/** The comment of a bare line break, shared by all of them. */
export const NO_COMMENT: readonly string[] = Object.freeze([]);

export type Fodder = FodderElement[];

export function fodderElement(
  kind: FodderKind,
  blanks: number,
  indent: number,
  comment: readonly string[],
): FodderElement {
  return { kind, blanks, indent, comment };
}

/** True when the fodder ends with a newline (so the next token starts a line). */
function hasCleanEndline(fodder: Fodder): boolean {
  return fodder.length > 0 && fodder[fodder.length - 1]!.kind !== 'interstitial';
}

/** Appends one element, merging a bare line end into a preceding newline. */
export function fodderAppend(fodder: Fodder, elem: FodderElement): void {
  if (hasCleanEndline(fodder) && elem.kind === 'lineEnd') {
    if (elem.comment.length > 0) {
      // A line-end comment directly after a newline sits on its own line.
      fodder.push(fodderElement('paragraph', elem.blanks, elem.indent, elem.comment));
    } else {
      const back = fodder[fodder.length - 1]!;
      back.indent = elem.indent;
      back.blanks += elem.blanks;
    }
  } else {
    if (!hasCleanEndline(fodder) && elem.kind === 'paragraph') {
      fodder.push(fodderElement('lineEnd', 0, elem.indent, NO_COMMENT));
    }
    fodder.push(elem);
  }
}

function cloneElement(e: FodderElement): FodderElement {
  return { kind: e.kind, blanks: e.blanks, indent: e.indent, comment: e.comment };
}

/** a followed by b, normalised at the seam; the inputs are not modified. */
export function fodderConcat(a: Fodder, b: Fodder): Fodder {
  if (a.length === 0) return b.map(cloneElement);
  if (b.length === 0) return a.map(cloneElement);
  const r = a.map(cloneElement);
  fodderAppend(r, cloneElement(b[0]!));
  for (let i = 1; i < b.length; i++) r.push(cloneElement(b[i]!));
  return r;
}

/** Replaces the contents of `target` in place (fodder arrays are shared slots). */
export function setFodder(target: Fodder, value: Fodder): void {
  target.length = 0;
  for (const e of value) target.push(e);
}

/** Moves all of `from` to the front of `to`, leaving `from` empty. */
export function fodderMoveFront(to: Fodder, from: Fodder): void {
  if (from.length === 0) return;
  setFodder(to, fodderConcat(from, to));
  from.length = 0;
}

export function ensureCleanNewline(fodder: Fodder): void {
  if (!hasCleanEndline(fodder)) fodderAppend(fodder, fodderElement('lineEnd', 0, 0, NO_COMMENT));
}

export function countNewlines(fodder: Fodder): number {
  let sum = 0;
  for (let i = 0; i < fodder.length; i++) {
    const e = fodder[i]!;
    if (e.kind === 'lineEnd') sum += 1;
    else if (e.kind === 'paragraph') sum += e.comment.length + e.blanks;
  }
  return sum;
}

/** Does the fodder contain at least one line break? */
export function hasNewline(fodder: Fodder): boolean {
  for (let i = 0; i < fodder.length; i++) if (fodder[i]!.kind !== 'interstitial') return true;
  return false;
}
