/**
 * A parser for Go's regexp syntax (RE2, as regexp.Compile accepts it:
 * Perl flags, ClassNL, OneLine, UnicodeGroups). It accepts and rejects what
 * Go does, with Go's error text ("error parsing regexp: <code>: `<expr>`"),
 * and returns an AST with the flags already resolved (see re2-ast.ts).
 * Invariants: recursion depth is bounded (Go's nesting limit, 1000); never
 * throws anything but Re2SyntaxError.
 */

import type { ClassSet, ParsedRe2, Re2Node } from './re2-ast.js';
import {
  cleanRanges,
  foldOrbit,
  foldRanges,
  negateRanges,
  PERL_CLASSES,
  posixClass,
  unicodeProperty,
} from './re2-classes.js';

export class Re2SyntaxError extends Error {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'Re2SyntaxError';
  }
}

const MAX_REPEAT = 1000;
const MAX_NESTING = 1000;

interface Flags {
  fold: boolean;
  oneLine: boolean;
  dotNL: boolean;
  nonGreedy: boolean;
}

function isAlnum(c: string): boolean {
  return /^[0-9A-Za-z]$/.test(c);
}
function unhex(c: string | undefined): number {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c) ? parseInt(c, 16) : -1;
}

class Parser {
  private pos = 0;
  private flags: Flags = { fold: false, oneLine: true, dotNL: false, nonGreedy: false };
  private numCap = 0;
  private depth = 0;
  readonly names: string[] = [''];
  private readonly chars: string[];

  constructor(private readonly whole: string) {
    this.chars = [...whole];
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }
  private rest(from = this.pos): string {
    return this.chars.slice(from).join('');
  }
  private text(from: number, to = this.pos): string {
    return this.chars.slice(from, to).join('');
  }
  private fail(code: string, expr: string): never {
    throw new Re2SyntaxError(code, expr);
  }

  parse(): Re2Node {
    const root = this.parseAlternation();
    if (this.pos < this.chars.length) this.fail('unexpected )', this.whole);
    return root;
  }

  private parseAlternation(): Re2Node {
    const items = [this.parseConcat()];
    while (this.peek() === '|') {
      this.pos++;
      items.push(this.parseConcat());
    }
    return items.length === 1 ? items[0]! : { type: 'alternate', items };
  }

  private parseConcat(): Re2Node {
    const items: Re2Node[] = [];
    let lastRepeatStart = -1;
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      const start = this.pos;
      if (c === '*' || c === '+' || c === '?' || c === '{') {
        let min: number;
        let max: number;
        if (c === '{') {
          const parsed = this.parseRepeatBraces();
          if (parsed === undefined) {
            this.pos++;
            items.push(this.literal(0x7b));
            lastRepeatStart = -1;
            continue;
          }
          [min, max] = parsed;
          if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max))
            this.fail('invalid repeat count', this.text(start));
        } else {
          this.pos++;
          [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
        }
        let greedy = !this.flags.nonGreedy;
        if (this.peek() === '?') {
          this.pos++;
          greedy = !greedy;
        }
        if (lastRepeatStart >= 0) this.fail('invalid nested repetition operator', this.text(lastRepeatStart));
        const sub = items.pop();
        if (sub === undefined) this.fail('missing argument to repetition operator', this.text(start));
        const node: Re2Node = { type: 'repeat', min, max, greedy, body: sub };
        if (c === '{' && (min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT))
          this.fail('invalid repeat count', this.text(start));
        items.push(node);
        lastRepeatStart = start;
        continue;
      }
      lastRepeatStart = -1;
      const atom = this.parseAtom();
      if (Array.isArray(atom)) items.push(...atom);
      else if (atom !== undefined) items.push(atom);
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0]! : { type: 'concat', items };
  }

  private literal(cp: number): Re2Node {
    return { type: 'literal', codePoint: cp, fold: this.flags.fold && foldOrbit(cp).length > 1 };
  }

  /** One atom; several for \Q...\E; undefined for a flags-only group like (?i). */
  private parseAtom(): Re2Node | Re2Node[] | undefined {
    const c = this.peek()!;
    switch (c) {
      case '(':
        return this.parseGroup();
      case '^':
        this.pos++;
        return { type: 'assert', kind: this.flags.oneLine ? 'beginText' : 'beginLine' };
      case '$':
        this.pos++;
        return { type: 'assert', kind: this.flags.oneLine ? 'endText' : 'endLine' };
      case '.':
        this.pos++;
        return { type: 'anyChar', matchesNewline: this.flags.dotNL };
      case '[':
        return this.parseClass();
      case '\\':
        return this.parseBackslash();
      default:
        this.pos++;
        return this.literal(c.codePointAt(0)!);
    }
  }

  private parseGroup(): Re2Node | undefined {
    const start = this.pos;
    let capture = 0;
    let name: string | undefined;
    const saved = { ...this.flags };
    if (this.peek(1) === '?') {
      const t = this.rest();
      const startsWithP = t.length > 4 && t[2] === 'P' && t[3] === '<';
      const startsWithName = t.length > 3 && t[2] === '<';
      if (startsWithP || startsWithName) {
        const end = t.indexOf('>');
        if (end < 0) this.fail('invalid named capture', t);
        name = t.slice(startsWithP ? 4 : 3, end);
        if (!/^[A-Za-z0-9_]+$/.test(name)) this.fail('invalid named capture', t.slice(0, end + 1));
        capture = ++this.numCap;
        this.names[capture] = name;
        this.pos += [...t.slice(0, end + 1)].length;
      } else {
        this.pos += 2;
        const flags = { ...this.flags };
        let negate = false;
        let sawFlag = false;
        for (;;) {
          const f = this.peek();
          if (f === undefined) this.fail('invalid or unsupported Perl syntax', this.text(start));
          this.pos++;
          if (f === 'i' || f === 'm' || f === 's' || f === 'U') {
            const on = !negate;
            if (f === 'i') flags.fold = on;
            else if (f === 'm') flags.oneLine = !on;
            else if (f === 's') flags.dotNL = on;
            else flags.nonGreedy = on;
            sawFlag = true;
          } else if (f === '-' && !negate) {
            negate = true;
            sawFlag = false;
          } else if ((f === ':' || f === ')') && !(negate && !sawFlag)) {
            this.flags = flags;
            if (f === ')') return undefined;
            break;
          } else this.fail('invalid or unsupported Perl syntax', this.text(start));
        }
      }
    } else {
      this.pos++;
      capture = ++this.numCap;
      this.names[capture] = '';
    }
    if (++this.depth > MAX_NESTING) this.fail('expression nests too deeply', this.whole);
    const body = this.parseAlternation();
    this.depth--;
    if (this.peek() !== ')') this.fail('missing closing )', this.whole);
    this.pos++;
    this.flags = saved;
    return capture === 0 ? body : { type: 'group', capture, name, body };
  }

  private parseBackslash(): Re2Node | Re2Node[] {
    const next = this.peek(1);
    switch (next) {
      case 'A':
        this.pos += 2;
        return { type: 'assert', kind: 'beginText' };
      case 'z':
        this.pos += 2;
        return { type: 'assert', kind: 'endText' };
      case 'b':
        this.pos += 2;
        return { type: 'assert', kind: 'wordBoundary' };
      case 'B':
        this.pos += 2;
        return { type: 'assert', kind: 'noWordBoundary' };
      case 'C':
        this.fail('invalid escape sequence', '\\C');
        break;
      case 'Q': {
        this.pos += 2;
        const rest = this.rest();
        const end = rest.indexOf('\\E');
        const lit = end < 0 ? rest : rest.slice(0, end);
        this.pos += [...lit].length + (end < 0 ? 0 : 2);
        return [...lit].map((ch) => this.literal(ch.codePointAt(0)!));
      }
    }
    const set = this.parseUnicodeClass() ?? this.parsePerlClass();
    if (set) return set;
    return this.literal(this.parseEscape());
  }

  /** \d \s \w and negations, folded under (?i) as Go's appendGroup does. */
  private perlClassRanges(): [number, number][] | undefined {
    const key = `\\${this.peek(1) ?? ''}`;
    const g = PERL_CLASSES[key];
    if (!g) return undefined;
    this.pos += 2;
    const ranges = this.flags.fold ? foldRanges(g.ranges) : g.ranges;
    return g.negated ? negateRanges(ranges) : ranges;
  }

  private parsePerlClass(): Re2Node | undefined {
    const ranges = this.perlClassRanges();
    return ranges ? { type: 'class', set: { ranges, properties: [] }, negated: false } : undefined;
  }

  /** \pL, \p{Greek}, \P{^Greek}... as a class set; undefined when not at \p/\P. */
  private unicodeClassSet(): ClassSet | undefined {
    if (this.peek() !== '\\' || (this.peek(1) !== 'p' && this.peek(1) !== 'P')) return undefined;
    const start = this.pos;
    let positive = this.peek(1) === 'p';
    let name: string;
    let seq: string;
    if (this.peek(2) === '{') {
      const rest = this.rest();
      const end = rest.indexOf('}');
      if (end < 0) this.fail('invalid character class range', rest);
      seq = rest.slice(0, end + 1);
      name = rest.slice(3, end);
      this.pos += [...seq].length;
    } else {
      const letter = this.peek(2) ?? '';
      seq = this.text(start, start + 2) + letter;
      name = letter;
      this.pos += 2 + (letter === '' ? 0 : 1);
    }
    if (name.startsWith('^')) {
      positive = !positive;
      name = name.slice(1);
    }
    // Under (?i) a cased-letter category matches every cased letter (Go adds the fold orbit of the table).
    const foldedName =
      this.flags.fold &&
      /^(lu|ll|lt|uppercase_?letter|lowercase_?letter|titlecase_?letter)$/i.test(name.replace(/[ -]/g, ''))
        ? 'LC'
        : name;
    const prop = name === '' ? undefined : unicodeProperty(foldedName, positive);
    if (prop === undefined) this.fail('invalid character class range', seq);
    if (typeof prop === 'string') return { ranges: [], properties: [prop] };
    return this.flags.fold ? { ranges: foldRanges(prop.ranges), properties: [] } : prop;
  }

  private parseUnicodeClass(): Re2Node | undefined {
    const set = this.unicodeClassSet();
    return set ? { type: 'class', set, negated: false } : undefined;
  }

  /** One escaped character (parseEscape); the cursor is at the backslash. */
  private parseEscape(): number {
    const start = this.pos;
    this.pos++;
    const c = this.peek();
    if (c === undefined) this.fail('trailing backslash at end of expression', '');
    this.pos++;
    const bad = (): never => this.fail('invalid escape sequence', this.text(start));
    if (c.codePointAt(0)! < 0x80 && !isAlnum(c)) return c.codePointAt(0)!;
    if (c >= '1' && c <= '7' && !(this.peek() !== undefined && this.peek()! >= '0' && this.peek()! <= '7')) bad();
    if (c >= '0' && c <= '7') {
      let r = c.charCodeAt(0) - 48;
      for (let i = 1; i < 3; i++) {
        const d = this.peek();
        if (d === undefined || d < '0' || d > '7') break;
        r = r * 8 + d.charCodeAt(0) - 48;
        this.pos++;
      }
      return r;
    }
    switch (c) {
      case 'x': {
        const first = this.peek();
        if (first === undefined) bad();
        this.pos++;
        if (first === '{') {
          let r = 0;
          let digits = 0;
          for (;;) {
            const d = this.peek();
            if (d === undefined) bad();
            this.pos++;
            if (d === '}') break;
            const v = unhex(d);
            if (v < 0) bad();
            r = r * 16 + v;
            if (r > 0x10ffff) bad();
            digits++;
          }
          if (digits === 0) bad();
          return r;
        }
        const x = unhex(first);
        const second = this.peek();
        if (second !== undefined) this.pos++;
        const y = unhex(second);
        if (x < 0 || y < 0) bad();
        return x * 16 + y;
      }
      case 'a':
        return 0x07;
      case 'f':
        return 0x0c;
      case 'n':
        return 0x0a;
      case 'r':
        return 0x0d;
      case 't':
        return 0x09;
      case 'v':
        return 0x0b;
    }
    return bad();
  }

  private parseClassChar(wholeClass: string): number {
    const c = this.peek();
    if (c === undefined) this.fail('missing closing ]', wholeClass);
    if (c === '\\') return this.parseEscape();
    this.pos++;
    return c.codePointAt(0)!;
  }

  private parseClass(): Re2Node {
    const wholeClass = this.rest();
    this.pos++;
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: [number, number][] = [];
    const properties: string[] = [];
    let first = true;
    while (this.peek() === undefined || this.peek() !== ']' || first) {
      if (this.peek() === undefined) this.fail('missing closing ]', wholeClass);
      first = false;
      if (this.peek() === '[' && this.peek(1) === ':') {
        const rest = this.rest();
        const end = rest.indexOf(':]', 2);
        if (end >= 0) {
          const name = rest.slice(0, end + 2);
          const g = posixClass(name);
          if (!g) this.fail('invalid character class range', name);
          this.pos += [...name].length;
          const folded = this.flags.fold ? foldRanges(g.ranges) : g.ranges;
          ranges.push(...(g.negated ? negateRanges(folded) : folded));
          continue;
        }
      }
      const uni = this.unicodeClassSet();
      if (uni) {
        ranges.push(...uni.ranges);
        properties.push(...uni.properties);
        continue;
      }
      const perl = this.perlClassRanges();
      if (perl) {
        ranges.push(...perl);
        continue;
      }
      const rangeStart = this.pos;
      const lo = this.parseClassChar(wholeClass);
      let hi = lo;
      if (this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        this.pos++;
        hi = this.parseClassChar(wholeClass);
        if (hi < lo) this.fail('invalid character class range', this.text(rangeStart));
      }
      if (this.flags.fold) ranges.push(...foldRanges([[lo, hi]]));
      else ranges.push([lo, hi]);
    }
    this.pos++; // ]
    const clean = cleanRanges(ranges);
    if (properties.length === 0 && negated)
      return { type: 'class', set: { ranges: negateRanges(clean), properties }, negated: false };
    return { type: 'class', set: { ranges: clean, properties }, negated };
  }

  /** {n}, {n,}, {n,m}: [min, max] (max -1 = unbounded, min -1 = too big), or undefined when it is a literal `{`. */
  private parseRepeatBraces(): [number, number] | undefined {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.rest());
    if (!m) return undefined;
    const parseInt10 = (s: string): number | undefined => {
      if (s.length >= 2 && s[0] === '0') return undefined;
      return s.length > 8 ? -1 : Number(s);
    };
    const min = parseInt10(m[1]!);
    if (min === undefined) return undefined;
    let max = min;
    let tooBig = false;
    if (m[2] !== undefined) {
      if (m[3] === '') max = -1;
      else {
        const v = parseInt10(m[3]!);
        if (v === undefined) return undefined;
        max = v;
        tooBig = v < 0;
      }
    }
    this.pos += m[0].length;
    return [tooBig ? -1 : min, max];
  }
}

/** Go's repeatIsValid: nested counted repetitions may not multiply past 1000. */
function repeatIsValid(node: Re2Node, n: number): boolean {
  if (node.type === 'repeat') {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
    return repeatIsValid(node.body, n);
  }
  if (node.type === 'group') return repeatIsValid(node.body, n);
  if (node.type === 'concat' || node.type === 'alternate') return node.items.every((i) => repeatIsValid(i, n));
  return true;
}

export function parseRe2(pattern: string): ParsedRe2 {
  const parser = new Parser(pattern);
  const root = parser.parse();
  return { root, groupNames: parser.names };
}
