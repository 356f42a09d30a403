/**
 * Pass: a multi-line array or object ends with a comma, a one-line one does
 * not; comprehensions never keep a comma before `for`. A removed comma's
 * comments move to the closing bracket.
 */
import { fodderMoveFront, hasNewline, type Fodder } from './fodder.js';
import type { ForSpec, Node } from './tree.js';

interface CommaSlot {
  trailingComma: boolean;
}

function fixComma(lastCommaFodder: Fodder, node: CommaSlot, closeFodder: Fodder): void {
  const needComma = hasNewline(closeFodder) || hasNewline(lastCommaFodder);
  if (node.trailingComma) {
    if (!needComma) {
      node.trailingComma = false;
      fodderMoveFront(closeFodder, lastCommaFodder);
    } else if (hasNewline(lastCommaFodder)) {
      // Keep the comma right after the last element, not on the next line.
      fodderMoveFront(closeFodder, lastCommaFodder);
    }
  } else if (needComma) {
    node.trailingComma = true;
  }
}

function removeComma(lastCommaFodder: Fodder, node: CommaSlot, closeFodder: Fodder): void {
  if (node.trailingComma) {
    node.trailingComma = false;
    fodderMoveFront(closeFodder, lastCommaFodder);
  }
}

/** Applies the rule to one node; the caller walks the tree. */
export function fixTrailingCommasAt(n: Node): void {
  switch (n.type) {
    case 'array':
      if (n.elements.length > 0) fixComma(n.elements[n.elements.length - 1]!.commaFodder, n, n.closeFodder);
      break;
    case 'arrayComp':
      removeComma(n.trailingCommaFodder, n, firstForFodder(n.spec));
      break;
    case 'object':
      if (n.fields.length > 0) fixComma(n.fields[n.fields.length - 1]!.commaFodder, n, n.closeFodder);
      break;
    case 'objectComp':
      if (n.fields.length > 0) removeComma(n.fields[n.fields.length - 1]!.commaFodder, n, firstForFodder(n.spec));
      break;
    default:
      break;
  }
}

/** The fodder of the first `for` (specs are chained innermost-last). */
function firstForFodder(spec: ForSpec): Fodder {
  let s = spec;
  while (s.outer) s = s.outer;
  return s.forFodder;
}
