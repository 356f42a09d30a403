/**
 * Pass: collapses doubled parentheses, ((e)) -> (e), keeping the inner
 * parentheses' comments. Only one level per parenthesis node, like jsonnetfmt:
 * (((e))) becomes ((e)) in one run.
 */
import { fodderMoveFront } from './fodder.js';
import type { Node, Parens } from './tree.js';

/** The inner parentheses `n` would absorb, or null. */
export function doubledParens(n: Node): Parens | null {
  return n.type === 'parens' && n.inner.type === 'parens' ? n.inner : null;
}

/** Absorbs `n.inner` (a parens node): its comments move to `n`'s own slots. */
export function collapseParens(n: Parens, inner: Parens): void {
  n.inner = inner.inner;
  // `n` is not left-recursive: its own fodder is the one before its first token.
  fodderMoveFront(n.fodder, inner.fodder);
  fodderMoveFront(n.closeFodder, inner.closeFodder);
}
