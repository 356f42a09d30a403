/**
 * Pass: a slice without a step drops its second colon (a[1::] -> a[1:]),
 * keeping that colon's comments before the `]`.
 */
import { fodderMoveFront } from './fodder.js';
import type { Node } from './tree.js';
import { transformTree } from './walk.js';

export function noRedundantSliceColon(body: Node): Node {
  return transformTree(body, (n) => {
    if (n.type === 'slice' && n.step === null && n.stepColonFodder.length > 0) {
      fodderMoveFront(n.rightBracketFodder, n.stepColonFodder);
    }
    return n;
  });
}
