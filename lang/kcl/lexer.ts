/**
 * KCL tokens. Indentation is significant outside brackets (NEWLINE, INDENT,
 * DEDENT, as in Python). Inside `[]` and `{}` a line break is a soft NL token
 * (list items and config entries may be separated by line breaks alone, and
 * `if` blocks in a config are delimited by the column of their lines); inside
 * `()` line breaks are ignored. Strings keep their raw body: escapes and
 * `${}` interpolations are decoded by the parser, which knows the positions.
 */
import { KclError } from './errors.js';

export type TokenKind = 'name' | 'int' | 'float' | 'string' | 'op' | 'newline' | 'nl' | 'indent' | 'dedent' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Name text, operator text, number text, or a string's raw body. */
  value: string;
  line: number;
  col: number;
  /** For strings: raw (r"..."). */
  raw: boolean;
  /** For strings: how far the body starts after the token (prefix and quote); 0 otherwise. */
  bodyShift: number;
}

/**
 * Token objects are reused from one file to the next: a parse reads its tokens while it runs and
 * keeps none of them (nodes copy what they need), so a run of 629 files makes no token garbage.
 * One pool per nesting level, as an interpolation's expression is tokenized while its file's
 * parse is under way.
 */
const POOLS: Token[][] = [];
const POOL_MAX = 8192;
export function tokenPool(level: number): Token[] {
  return (POOLS[level] ??= []);
}
/** After a parse: a pool keeps at most POOL_MAX tokens (a huge file's are let go). */
export function trimTokenPool(pool: Token[]): void {
  if (pool.length > POOL_MAX) pool.length = POOL_MAX;
}

const OPERATORS = [
  '**=',
  '//=',
  '<<=',
  '>>=',
  '...',
  '**',
  '//',
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '->',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '?.',
  '?[',
  '+',
  '-',
  '*',
  '/',
  '%',
  '<',
  '>',
  '=',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '|',
  '&',
  '^',
  '~',
  '@',
  '?',
  '!',
];

/** Deeper nesting is refused here rather than overflowing the parser's stack. */
const MAX_NESTING = 200;

/** Operators by first character, longest first. */
const OPS_BY_CHAR = new Map<string, string[]>();
for (const o of OPERATORS) {
  const list = OPS_BY_CHAR.get(o[0]!) ?? [];
  list.push(o);
  OPS_BY_CHAR.set(o[0]!, list);
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || c > '\u007f';
}
/** isIdentPart by char code (the scanning loop of names: no one-character strings). */
function isIdentPartCode(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36 || c > 0x7f;
}
function isQuote(c: number): boolean {
  return c === 34 || c === 39;
}
/** Punctuation that starts no longer operator, by char code: `( ) [ ] { } , ; : ~ @`. */
const SINGLE_OPS: (string | undefined)[] = [];
for (const o of ['(', ')', '[', ']', '{', '}', ',', ';', ':', '~', '@']) SINGLE_OPS[o.charCodeAt(0)] = o;
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/**
 * Names are shared strings across files and runs: the AST keeps one copy of `application`
 * rather than one per occurrence (less to copy when a collection finds the ASTs alive), and
 * the evaluator's Map lookups by name reuse the string's cached hash. Bounded.
 */
const NAME_SLOTS = 1 << 15;
let names: (string | undefined)[] = new Array<string | undefined>(NAME_SLOTS);
let nameCount = 0;
/**
 * The shared string of the name text[start, end), whose hash the scanning loop computed: found
 * by comparing in place, so a name already known is not sliced out of the text first.
 */
function internAt(text: string, start: number, end: number, hash: number): string {
  const len = end - start;
  for (let slot = hash & (NAME_SLOTS - 1); ; slot = (slot + 1) & (NAME_SLOTS - 1)) {
    const known = names[slot];
    if (known === undefined) break;
    if (known.length === len && text.startsWith(known, start)) return known;
  }
  // Half full: start again rather than probe long chains (a bound on what the table keeps).
  if (nameCount >= NAME_SLOTS / 2) {
    names = new Array<string | undefined>(NAME_SLOTS);
    nameCount = 0;
  }
  const s = text.slice(start, end);
  let slot = hash & (NAME_SLOTS - 1);
  while (names[slot] !== undefined) slot = (slot + 1) & (NAME_SLOTS - 1);
  names[slot] = s;
  nameCount++;
  return s;
}

/** The name that starts at text[start] (an identifier start), interned; its length says where it ends. */
function scanName(text: string, start: number): string {
  const n = text.length;
  let j = start + 1;
  let h = text.charCodeAt(start);
  for (let d = text.charCodeAt(j); j < n && isIdentPartCode(d); d = text.charCodeAt(++j))
    h = (Math.imul(h, 31) + d) | 0;
  return internAt(text, start, j, h);
}

/**
 * Tokenizes `text` into `tokens` (a pool from tokenPool, or a fresh array), overwriting what it
 * held; returns how many tokens there are (the last is 'eof'). Entries past that are stale.
 */
export function tokenize(file: string, text: string, tokens: Token[] = []): number {
  let count = 0;
  const indents = [0];
  const brackets: string[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let atLineStart = true;
  const n = text.length;
  const lineText = (l: number): string => text.split('\n')[l - 1] ?? '';
  const fail = (msg: string, off: number, l = line, ls = lineStart): never => {
    throw new KclError('InvalidSyntax', msg, { file, line: l, col: off - ls + 1 }, lineText(l));
  };
  // Every token has the same six fields (string ones included): the parser's reads stay monomorphic.
  const put = (kind: TokenKind, value: string, tl: number, col: number, raw: boolean, bodyShift: number): void => {
    const t = tokens[count];
    if (t === undefined) tokens.push({ kind, value, line: tl, col, raw, bodyShift });
    else {
      t.kind = kind;
      t.value = value;
      t.line = tl;
      t.col = col;
      t.raw = raw;
      t.bodyShift = bodyShift;
    }
    count++;
  };
  const push = (kind: TokenKind, value: string, offset: number): void =>
    put(kind, value, line, offset - lineStart + 1, false, 0);
  const lastKind = (): TokenKind | undefined => (count > 0 ? tokens[count - 1]!.kind : undefined);

  while (i <= n) {
    if (atLineStart && brackets.length === 0) {
      // Measure indentation; blank and comment-only lines do not count.
      let j = i;
      let width = 0;
      for (let d = text.charCodeAt(j); d === 32 || d === 9; d = text.charCodeAt(++j)) width += d === 9 ? 4 : 1;
      if (j >= n) {
        i = j;
        break;
      }
      if (text[j] === '\n' || text[j] === '#' || (text[j] === '\r' && text[j + 1] === '\n')) {
        while (j < n && text[j] !== '\n') j++;
        i = j + 1;
        line++;
        lineStart = i;
        continue;
      }
      atLineStart = false;
      const top = indents[indents.length - 1]!;
      if (width > top) {
        indents.push(width);
        push('indent', '', j);
      } else {
        while (width < indents[indents.length - 1]!) {
          indents.pop();
          push('dedent', '', j);
        }
        if (width !== indents[indents.length - 1]!) fail('unindent does not match any outer indentation level', j);
      }
      i = j;
    }
    if (i >= n) break;
    const cc = text.charCodeAt(i);
    // The common cases by char code first: blanks, names, punctuation that starts no longer operator.
    if (cc === 32 || cc === 9 || cc === 13) {
      i++;
      continue;
    }
    if (
      (cc >= 97 && cc <= 122 && !((cc === 114 || cc === 82) && isQuote(text.charCodeAt(i + 1)))) ||
      (cc >= 65 && cc <= 90 && cc !== 82) ||
      cc === 95
    ) {
      const name = scanName(text, i);
      push('name', name, i);
      i += name.length;
      continue;
    }
    const single = SINGLE_OPS[cc];
    if (single !== undefined) {
      if (cc === 40 || cc === 91 || cc === 123) {
        if (brackets.length >= MAX_NESTING) fail(`brackets nested deeper than ${MAX_NESTING}`, i);
        brackets.push(single);
      } else if (cc === 41 || cc === 93 || cc === 125) {
        const want = cc === 41 ? '(' : cc === 93 ? '[' : '{';
        if (brackets.pop() !== want) fail(`unmatched '${single}'`, i);
        if (lastKind() === 'nl') count--;
      }
      push('op', single, i);
      i++;
      continue;
    }
    if (cc === 35 /* # */) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      continue;
    }
    const c = text[i]!;
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\n' ? 2 : 3;
      line++;
      lineStart = i;
      continue;
    }
    if (c === '\n') {
      const top = brackets[brackets.length - 1];
      if (top === undefined) {
        push('newline', '', i);
        atLineStart = true;
      } else if (top !== '(') {
        const last = lastKind();
        if (last !== undefined && last !== 'nl') push('nl', '', i);
      }
      i++;
      line++;
      lineStart = i;
      continue;
    }
    const start = i;
    // Strings, with an optional r/R prefix.
    const rawPrefix = (c === 'r' || c === 'R') && (text[i + 1] === '"' || text[i + 1] === "'");
    if (c === '"' || c === "'" || rawPrefix) {
      const q0 = rawPrefix ? i + 1 : i;
      const qc = text[q0]!;
      const triple = text[q0 + 1] === qc && text[q0 + 2] === qc;
      const quote = triple ? qc + qc + qc : qc;
      let j = q0 + quote.length;
      const bodyStart = j;
      const startLine = line;
      const startLineStart = lineStart;
      for (;;) {
        if (j >= n) fail('unterminated string', start, startLine, startLineStart);
        const ch = text[j]!;
        if (ch === '\\' && !rawPrefix) {
          if (text[j + 1] === '\n') {
            line++;
            lineStart = j + 2;
          }
          j += 2;
          continue;
        }
        if (ch === '\n') {
          if (!triple) fail('unterminated string', start, startLine, startLineStart);
          line++;
          lineStart = j + 1;
        }
        if (ch === qc && (!triple || text.startsWith(quote, j))) break;
        j++;
      }
      put('string', text.slice(bodyStart, j), startLine, start - startLineStart + 1, rawPrefix, bodyStart - start);
      i = j + quote.length;
      continue;
    }
    if (isIdentStart(c)) {
      const name = scanName(text, i);
      push('name', name, i);
      i += name.length;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(text[i + 1] ?? ''))) {
      let j = i;
      let kind: TokenKind = 'int';
      if (c === '0' && 'xXoObB'.includes(text[i + 1] || '\u0000')) {
        j += 2;
        while (j < n && /[0-9a-fA-F_]/.test(text[j]!)) j++;
      } else {
        while (j < n && (isDigit(text[j]!) || text[j] === '_')) j++;
        if (text[j] === '.' && isDigit(text[j + 1] ?? '')) {
          kind = 'float';
          j++;
          while (j < n && isDigit(text[j]!)) j++;
        } else if (text[j] === '.' && !isIdentStart(text[j + 1] ?? '') && text[j + 1] !== '.') {
          kind = 'float';
          j++;
        }
        if (text[j] === 'e' || text[j] === 'E') {
          let k = j + 1;
          if (text[k] === '+' || text[k] === '-') k++;
          if (isDigit(text[k] ?? '')) {
            kind = 'float';
            j = k;
            while (j < n && isDigit(text[j]!)) j++;
          }
        }
      }
      if (isIdentStart(text[j] ?? ''))
        fail(`invalid number suffix '${text[j]}': unit suffixes are outside the subset`, j);
      const num = text.slice(i, j);
      push(kind, num.includes('_') ? num.replace(/_/g, '') : num, i);
      i = j;
      continue;
    }
    let op: string | undefined;
    const candidates = OPS_BY_CHAR.get(c);
    if (candidates)
      for (const o of candidates)
        if (o.length === 1 || text.startsWith(o, i)) {
          op = o;
          break;
        }
    if (!op) fail(`invalid character '${c}' in source`, i);
    const o = op!;
    if (o === '(' || o === '[' || o === '{' || o === '?[') {
      if (brackets.length >= MAX_NESTING) fail(`brackets nested deeper than ${MAX_NESTING}`, i);
      brackets.push(o === '?[' ? '[' : o);
    }
    if (o === ')' || o === ']' || o === '}') {
      const want = o === ')' ? '(' : o === ']' ? '[' : '{';
      if (brackets.pop() !== want) fail(`unmatched '${o}'`, i);
      if (lastKind() === 'nl') count--;
    }
    push('op', o, i);
    i += o.length;
  }
  if (brackets.length > 0) fail(`unclosed '${brackets[brackets.length - 1]}'`, n);
  const last = lastKind();
  if (last !== undefined && last !== 'newline' && last !== 'dedent') push('newline', '', n);
  while (indents.length > 1) {
    indents.pop();
    push('dedent', '', n);
  }
  push('eof', '', n);
  return count;
}
