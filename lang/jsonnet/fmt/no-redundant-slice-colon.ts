/**
 * Pass: a slice without a step drops its second colon (a[1::] -> a[1:]),
 * keeping that colon's comments before the `]`.
 */
import { fodderMoveFront } from './fodder.js';
import type { Node } from './tree.js';

export function noRedundantSliceColonAt(n: Node): void {
  if (n.type === 'slice' && n.step === null && n.stepColonFodder.length > 0) {
    fodderMoveFront(n.rightBracketFodder, n.stepColonFodder);
  }
}
