/**
 * Pass: caps runs of blank lines at `max` (jsonnetfmt --max-blank-lines).
 * Interstitial comments carry no blank lines and are left alone. jsonnetfmt
 * caps every fodder once, before the other passes move comments around
 * (merging two fodders can add up their blank lines, and is not re-capped).
 */
import type { Fodder } from './fodder.js';

export function capBlankLines(fodder: Fodder, max: number): void {
  for (let i = 0; i < fodder.length; i++) {
    const e = fodder[i]!;
    if (e.kind !== 'interstitial' && e.blanks > max) e.blanks = max;
  }
}
