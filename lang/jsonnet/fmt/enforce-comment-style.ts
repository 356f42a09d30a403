/**
 * Pass: rewrites one-line comments to `#` or `//` (jsonnetfmt --comment-style).
 * A `#!` comment is left alone when it is the file's first line-breaking
 * fodder (a she-bang); multi-line and interstitial comments are never touched.
 */
import type { Fodder } from './fodder.js';
import type { Node } from './tree.js';
import { forEachPassFodder } from './walk.js';

export function enforceCommentStyle(body: Node, finalFodder: Fodder, style: 'h' | 's'): void {
  let seenFirst = false;
  const restyle = (fodder: Fodder): void => {
    for (const e of fodder) {
      if (e.kind === 'interstitial') continue;
      if (e.comment.length === 1) {
        const c = e.comment[0]!;
        if (style === 'h' && c.startsWith('/')) e.comment[0] = '#' + c.slice(2);
        if (style === 's' && c.startsWith('#')) {
          if (!seenFirst && c[1] === '!') continue;
          e.comment[0] = '//' + c.slice(1);
        }
      }
      seenFirst = true;
    }
  };
  forEachPassFodder(body, restyle);
  restyle(finalFodder);
}
