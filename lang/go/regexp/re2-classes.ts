/**
 * Character sets of RE2 syntax: Perl classes (\d \s \w, ASCII only as in
 * RE2), POSIX classes ([:alpha:] ...), Unicode property names (resolved as
 * Go resolves them, to the names the engine's tables use), simple case folding orbits, and range-set algebra
 * (clean, negate) as Go's regexp/syntax does it.
 */

import { RE2JS } from 're2js';
import type { ClassSet } from './re2-ast.js';

const MAX_RUNE = 0x10ffff;

type Ranges = [number, number][];

export const PERL_CLASSES: Record<string, { negated: boolean; ranges: Ranges }> = {
  '\\d': { negated: false, ranges: [[0x30, 0x39]] },
  '\\D': { negated: true, ranges: [[0x30, 0x39]] },
  '\\s': {
    negated: false,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  '\\S': {
    negated: true,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  '\\w': {
    negated: false,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
  '\\W': {
    negated: true,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
};

const POSIX: Record<string, Ranges> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x5f, 0x5f],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** `[:name:]` or `[:^name:]` → its ranges and sign, or undefined for an unknown name. */
export function posixClass(text: string): { negated: boolean; ranges: Ranges } | undefined {
  const m = /^\[:(\^?)([a-z]+):\]$/.exec(text);
  if (!m) return undefined;
  const ranges = POSIX[m[2]!];
  return ranges ? { negated: m[1] === '^', ranges } : undefined;
}

export function cleanRanges(input: Ranges): Ranges {
  const sorted = [...input].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: Ranges = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) {
      if (hi > last[1]) last[1] = hi;
    } else out.push([lo, hi]);
  }
  return out;
}

export function negateRanges(input: Ranges): Ranges {
  const out: Ranges = [];
  let next = 0;
  for (const [lo, hi] of cleanRanges(input)) {
    if (next <= lo - 1) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

// Code points whose case-folding orbit is not reachable with toLowerCase/toUpperCase alone.
const FOLD_EXTRAS = [
  0x212a, 0x17f, 0x212b, 0xb5, 0x3d1, 0x3f4, 0x1e9e, 0x3c2, 0x3d0, 0x3d5, 0x3d6, 0x3f0, 0x3f1, 0x3f5, 0x1e9b, 0x1fbe,
  0x345, 0x1c80, 0x1c81, 0x1c82, 0x1c83, 0x1c84, 0x1c85, 0x1c86, 0x1c87, 0x1c88, 0xdf,
];
const EXTRA_SET = new Set(FOLD_EXTRAS);

function jsClassChar(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

const orbitCache = new Map<number, number[]>();

/** All code points equivalent to cp under Unicode simple case folding (Go's unicode.SimpleFold orbit). */
export function foldOrbit(cp: number): number[] {
  const cached = orbitCache.get(cp);
  if (cached) return cached;
  const ch = String.fromCodePoint(cp);
  const candidates = new Set<number>([cp]);
  const addVariants = (s: string): void => {
    for (const v of [s.toLowerCase(), s.toUpperCase()]) if ([...v].length === 1) candidates.add(v.codePointAt(0)!);
  };
  addVariants(ch);
  for (const c of [...candidates]) addVariants(String.fromCodePoint(c));
  for (const extra of FOLD_EXTRAS) candidates.add(extra);
  const same = new RegExp(`^[${jsClassChar(cp)}]$`, 'iu');
  const orbit = [...candidates].filter((c) => same.test(String.fromCodePoint(c))).sort((a, b) => a - b);
  orbitCache.set(cp, orbit);
  return orbit;
}

function hasCaseVariants(cp: number): boolean {
  if (EXTRA_SET.has(cp)) return true;
  const ch = String.fromCodePoint(cp);
  return ch.toLowerCase() !== ch || ch.toUpperCase() !== ch;
}

/** The range plus every case-folding equivalent of its members (appendFoldedRange). */
function foldRange(lo: number, hi: number): Ranges {
  // A range covering every folding code point cannot gain any (Go's same shortcut).
  if (lo <= 0x41 && hi >= 0x1e943) return [[lo, hi]];
  const out: Ranges = [[lo, hi]];
  const from = Math.max(lo, 0x41);
  const to = Math.min(hi, 0x1e943);
  for (let c = from; c <= to; c++) {
    if (!hasCaseVariants(c)) continue;
    for (const f of foldOrbit(c)) if (f < lo || f > hi) out.push([f, f]);
  }
  return cleanRanges(out);
}

export function foldRanges(input: Ranges): Ranges {
  return cleanRanges(input.flatMap(([lo, hi]) => foldRange(lo, hi)));
}

/** Go's canonicalName: first letter upper, the rest lower, without `_`, `-` and spaces. */
function canonicalName(name: string): string {
  const stripped = name.replace(/[_\- ]/g, '');
  return stripped.slice(0, 1).toUpperCase() + stripped.slice(1).toLowerCase();
}

const GO_CATEGORIES = new Set([
  'C',
  'Cc',
  'Cf',
  'Cn',
  'Co',
  'Cs',
  'L',
  'Ll',
  'Lm',
  'Lo',
  'Lt',
  'Lu',
  'M',
  'Mc',
  'Me',
  'Mn',
  'N',
  'Nd',
  'Nl',
  'No',
  'P',
  'Pc',
  'Pd',
  'Pe',
  'Pf',
  'Pi',
  'Po',
  'Ps',
  'S',
  'Sc',
  'Sk',
  'Sm',
  'So',
  'Z',
  'Zl',
  'Zp',
  'Zs',
]);

// Unicode's General_Category long names and aliases (Go's unicode.CategoryAliases), by canonical name.
const CATEGORY_ALIASES = new Map(
  Object.entries({
    Other: 'C',
    Control: 'Cc',
    Cntrl: 'Cc',
    Format: 'Cf',
    Unassigned: 'Cn',
    Privateuse: 'Co',
    Surrogate: 'Cs',
    Letter: 'L',
    Casedletter: 'LC',
    Lowercaseletter: 'Ll',
    Modifierletter: 'Lm',
    Otherletter: 'Lo',
    Titlecaseletter: 'Lt',
    Uppercaseletter: 'Lu',
    Mark: 'M',
    Combiningmark: 'M',
    Spacingmark: 'Mc',
    Enclosingmark: 'Me',
    Nonspacingmark: 'Mn',
    Number: 'N',
    Decimalnumber: 'Nd',
    Digit: 'Nd',
    Letternumber: 'Nl',
    Othernumber: 'No',
    Punctuation: 'P',
    Punct: 'P',
    Connectorpunctuation: 'Pc',
    Dashpunctuation: 'Pd',
    Closepunctuation: 'Pe',
    Finalpunctuation: 'Pf',
    Initialpunctuation: 'Pi',
    Otherpunctuation: 'Po',
    Openpunctuation: 'Ps',
    Symbol: 'S',
    Currencysymbol: 'Sc',
    Modifiersymbol: 'Sk',
    Mathsymbol: 'Sm',
    Othersymbol: 'So',
    Separator: 'Z',
    Lineseparator: 'Zl',
    Paragraphseparator: 'Zp',
    Spaceseparator: 'Zs',
  }),
);

const scriptNames = new Map<string, boolean>();

/** Whether `name` is one of Go's unicode.Scripts (long names only); the engine carries the same table. */
function isScript(name: string): boolean {
  let known = scriptNames.get(name);
  if (known === undefined) {
    known = false;
    if (/^[A-Z][A-Za-z_]*$/.test(name) && !GO_CATEGORIES.has(name)) {
      try {
        RE2JS.compile(`\\p{${name}}`);
        known = true;
      } catch {
        // not a name the tables know
      }
    }
    scriptNames.set(name, known);
  }
  return known;
}

/**
 * The RE2 escape (`\p{Greek}`, `\P{Lu}`) for a Unicode class name as Go's regexp/syntax resolves it
 * (Any, ASCII, Assigned, LC, categories, scripts, category aliases; names compared as Go 1.25
 * canonicalises them, scripts also by their exact name as older Go), or undefined when Go does not
 * know the name. `positive` false gives the negation.
 */
export function unicodeProperty(name: string, positive: boolean): string | ClassSet | undefined {
  const canonical = canonicalName(name);
  const p = positive ? 'p' : 'P';
  if (canonical === 'Any')
    return positive ? { ranges: [[0, MAX_RUNE]], properties: [] } : { ranges: [], properties: [] };
  if (canonical === 'Ascii') return { ranges: positive ? [[0, 0x7f]] : [[0x80, MAX_RUNE]], properties: [] };
  if (canonical === 'Assigned') return `\\${positive ? 'P' : 'p'}{Cn}`;
  if (canonical === 'Lc') return `\\${p}{LC}`;
  if (GO_CATEGORIES.has(canonical)) return `\\${p}{${canonical}}`;
  for (const candidate of [name, canonical]) if (isScript(candidate)) return `\\${p}{${candidate}}`;
  const alias = CATEGORY_ALIASES.get(canonical);
  return alias === undefined ? undefined : `\\${p}{${alias}}`;
}
