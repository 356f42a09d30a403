/**
 * Pass: caps runs of blank lines at `max` (jsonnetfmt --max-blank-lines).
 * Interstitial comments carry no blank lines and are left alone.
 */
import type { Fodder } from './fodder.js';
import type { Node } from './tree.js';
import { forEachPassFodder } from './walk.js';

export function enforceMaxBlankLines(body: Node, finalFodder: Fodder, max: number): void {
  const cap = (fodder: Fodder): void => {
    for (const e of fodder) if (e.kind !== 'interstitial' && e.blanks > max) e.blanks = max;
  };
  forEachPassFodder(body, cap);
  cap(finalFodder);
}
