/**
 * Pass: collapses doubled parentheses, ((e)) -> (e), keeping the inner
 * parentheses' comments. Only one level per parenthesis node, like jsonnetfmt.
 */
import { fodderMoveFront } from './fodder.js';
import { openFodder, type Node } from './tree.js';
import { transformTree } from './walk.js';

export function fixParens(body: Node): Node {
  return transformTree(body, (n) => {
    if (n.type !== 'parens') return n;
    // One level per node, as jsonnetfmt: (((e))) becomes ((e)).
    if (n.inner.type === 'parens') {
      const inner = n.inner;
      n.inner = inner.inner;
      fodderMoveFront(openFodder(n), inner.fodder);
      fodderMoveFront(n.closeFodder, inner.closeFodder);
    }
    return n;
  });
}
