/**
 * Code point ranges of a JS Unicode property escape (`\p{Lu}`,
 * `\P{Script=Greek}`), so that the linear engine gets every class as plain
 * ranges and the property tables stay the ones the parser validated names
 * against. Computed by letting V8 scan one string holding every scalar value
 * in order: each run of matches is one range. Results are cached per escape
 * (a pure function of it); surrogates never occur in well-formed input.
 */

import { cleanRanges, negateRanges } from './re2-classes.js';

type Ranges = [number, number][];

const BMP_UNITS = 0x10000 - 0x800; // BMP without the surrogate block
let allScalars: string | undefined;

function scalarsInOrder(): string {
  if (allScalars !== undefined) return allScalars;
  const units = new Uint16Array(BMP_UNITS + 2 * (0x110000 - 0x10000));
  let i = 0;
  for (let cp = 0; cp < 0x10000; cp++) if (cp < 0xd800 || cp > 0xdfff) units[i++] = cp;
  for (let cp = 0x10000; cp < 0x110000; cp++) {
    const v = cp - 0x10000;
    units[i++] = 0xd800 + (v >> 10);
    units[i++] = 0xdc00 + (v & 0x3ff);
  }
  const parts: string[] = [];
  for (let start = 0; start < units.length; start += 8192)
    parts.push(String.fromCharCode(...units.subarray(start, start + 8192)));
  allScalars = parts.join('');
  return allScalars;
}

function codePointAtUnit(index: number): number {
  if (index < 0xd800) return index;
  if (index < BMP_UNITS) return index + 0x800;
  return 0x10000 + ((index - BMP_UNITS) >> 1);
}

const cache = new Map<string, Ranges>();

/** The ranges `escape` (a `\p{...}` or `\P{...}` the parser produced) matches. */
export function propertyRanges(escape: string): Ranges {
  const hit = cache.get(escape);
  if (hit) return hit;
  const negated = escape.startsWith('\\P');
  const positive = negated ? `\\p${escape.slice(2)}` : escape;
  const ranges: Ranges = [];
  for (const m of scalarsInOrder().matchAll(new RegExp(`${positive}+`, 'gu')))
    ranges.push([codePointAtUnit(m.index), codePointAtUnit(m.index + m[0].length - 1)]);
  const result = negated ? negateRanges(cleanRanges(ranges)) : cleanRanges(ranges);
  cache.set(escape, result);
  return result;
}
