/**
 * Pass: rewrites one-line comments to `#` or `//` (jsonnetfmt --comment-style).
 * A `#!` comment is left alone when it is the file's first line-breaking
 * fodder (a she-bang); multi-line and interstitial comments are never touched.
 * The restyler must therefore see the file's fodder in source order.
 */
import type { Fodder } from './fodder.js';

/** A function to call on every fodder the pass visits, in source order. */
export function commentRestyler(style: 'h' | 's'): (fodder: Fodder) => void {
  let seenFirst = false;
  return (fodder: Fodder): void => {
    for (let i = 0; i < fodder.length; i++) {
      const e = fodder[i]!;
      if (e.kind === 'interstitial') continue;
      if (e.comment.length === 1) {
        const c = e.comment[0]!;
        if (style === 'h' && c.startsWith('/')) e.comment = ['#' + c.slice(2)];
        if (style === 's' && c.startsWith('#')) {
          if (!seenFirst && c[1] === '!') continue;
          e.comment = ['//' + c.slice(1)];
        }
      }
      seenFirst = true;
    }
  };
}
