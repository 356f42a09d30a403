/**
 * Pass: writes `a + { ... }` as `a { ... }` when the left side is a variable
 * or a field lookup (jsonnetfmt's implicit-plus rule); the `+`'s comments move
 * before the brace.
 */
import { fodderMoveFront } from './fodder.js';
import type { Node } from './tree.js';

/** The node to use in place of `n` (`n` itself when the rule does not apply). */
export function fixPlusObjectAt(n: Node): Node {
  if (n.type !== 'binary' || n.op !== '+' || n.right.type !== 'object') return n;
  if (n.left.type !== 'var' && n.left.type !== 'index') return n;
  fodderMoveFront(n.right.fodder, n.opFodder);
  return { type: 'applyBrace', fodder: n.fodder, left: n.left, right: n.right };
}
