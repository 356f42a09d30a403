/**
 * The fast path of the Jsonnet lexer: scans a whole file into typed arrays
 * (kind code, start, end per token, plus the text of the tokens that carry
 * some), with go-jsonnet's token rules and its error messages and offsets.
 * Comments and whitespace ("fodder") are skipped, not kept: they are the
 * gaps between one token's end and the next one's start, and the callers that
 * want them (lexer.ts's `lex`, the formatter) read them from there.
 *
 * Invariants: the last token is T_EOF at the end of the text; tokens are in
 * order and never overlap; the whole file is scanned before anything is
 * parsed, so a lexing error anywhere wins over a parse error (as in
 * go-jsonnet).
 *
 * Why this shape (figures from a generated 5.2 MiB k8s-style library, the
 * bench's parse leg, CPU time with one GC thread): the old lexer made one
 * object per token, each with its own fodder array and whitespace strings,
 * all alive until the parse ended; the garbage collector was over half of
 * parseModule's time. Lexing and parsing together went from 820 to 420 ms
 * with this scanner (scanning alone is about 40 ms). Typed arrays hold no
 * pointers for the GC to trace; only `data` is a JS array, and its strings
 * are interned.
 */
import type { SourceFile } from '../common/source.js';
import { staticError } from './errors.js';
import { hashStep, Interner } from './interner.js';
import {
  KEYWORD_LIST,
  T_DOLLAR,
  T_EOF,
  T_IDENTIFIER,
  T_NUMBER,
  T_OPERATOR,
  T_STRING_BLOCK,
  T_STRING_DOUBLE,
  T_STRING_SINGLE,
  T_VERBATIM_DOUBLE,
  T_VERBATIM_SINGLE,
  T_ASSERT,
} from './token-kinds.js';

export interface TokenBuffer {
  readonly file: SourceFile;
  readonly count: number;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Identifier/operator/number text or a string literal's raw contents; '' for the others. */
  readonly data: readonly string[];
  /** STRING_BLOCK tokens only: token index -> [block indentation, indentation of the closing `|||`]. */
  readonly blockIndents: ReadonlyMap<number, readonly [string, string]>;
}

/** Single-character tokens, by character code (-1: not one). */
const PUNCT = new Int8Array(128).fill(-1);
'{}[],$.();'.split('').forEach((c, i) => (PUNCT[c.charCodeAt(0)] = i));
// `$` is lexed as an operator run (so `$$` behaves as go-jsonnet's lexer), not here.
PUNCT[36] = -1;

// Characters that may form operators: ! $ : ~ + - & | ^ = < > * / %
const SYMBOL = new Uint8Array(128);
for (const c of '!$:~+-&|^=<>*/%') SYMBOL[c.charCodeAt(0)] = 1;
/** Characters an operator of two or more characters may not end with: + - ~ ! $ */
const BAD_ENDER = new Uint8Array(128);
for (const c of '+-~!$') BAD_ENDER[c.charCodeAt(0)] = 1;

function isSymbol(c: number): boolean {
  return c < 128 && SYMBOL[c] === 1;
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isIdentFirst(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}
function isIdent(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57);
}

/** Go's strconv.QuoteRuneToASCII, used in lexer error messages. */
export function quoteRuneAscii(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (ch === '') return `'\\x00'`;
  switch (ch) {
    case '\n':
      return `'\\n'`;
    case '\t':
      return `'\\t'`;
    case '\r':
      return `'\\r'`;
    case '\\':
      return `'\\\\'`;
    case "'":
      return `'\\''`;
    case '\x07':
      return `'\\a'`;
    case '\b':
      return `'\\b'`;
    case '\f':
      return `'\\f'`;
    case '\v':
      return `'\\v'`;
  }
  if (cp >= 0x20 && cp < 0x7f) return `'${ch}'`;
  if (cp < 0x10000) return `'\\u${cp.toString(16).padStart(4, '0')}'`;
  return `'\\U${cp.toString(16).padStart(8, '0')}'`;
}

/** Scans `file` into a TokenBuffer; throws a static JsonnetError at go-jsonnet's offset. */
export function scanTokens(file: SourceFile): TokenBuffer {
  return new Scanner(file).run();
}

class Scanner {
  private readonly src: string;
  private readonly n: number;
  private pos = 0;
  private count = 0;
  private kinds: Uint8Array;
  private starts: Int32Array;
  private ends: Int32Array;
  private data: string[];
  private readonly blockIndents = new Map<number, readonly [string, string]>();
  private readonly names = new Interner();
  // The current operator run (see operator()): cached so that a long run such
  // as `-----` lexes in linear time, one operator at a time.
  private runStart = -1;
  private runEnd = -1;
  private runLastEnder = -1;
  /** See backslashFrom. */
  private nextBackslash = -1;

  constructor(private readonly file: SourceFile) {
    this.src = file.text;
    this.n = this.src.length;
    // One token per 6 characters, grown by doubling when short: the 1,196
    // upstream and repository files average 9 characters a token (the bench's
    // library 7.4), and a sixth instead of a quarter made its arrays (`data`
    // is filled at once) 8 MB smaller and its scan 28 -> 25 ms (CPU, medians).
    const capacity = Math.floor(this.n / 6) + 16;
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    // Pre-sized and filled: growing a million-element array by push made scanning 60 ms instead of 37.
    this.data = new Array<string>(capacity).fill('');
    KEYWORD_LIST.forEach((k, i) => this.names.seed(k, T_ASSERT + i));
  }

  run(): TokenBuffer {
    const src = this.src;
    const n = this.n;
    for (;;) {
      let pos = this.pos;
      // Whitespace and comments (the fodder) are skipped here.
      let c = 0;
      for (; pos < n; pos++) {
        c = src.charCodeAt(pos);
        if (c === 32 || c === 10 || c === 9 || c === 13) continue;
        if (c === 35 /* # */ || (c === 47 /* / */ && src.charCodeAt(pos + 1) === 47)) {
          const nl = src.indexOf('\n', pos);
          if (nl < 0) {
            pos = n;
            break;
          }
          pos = nl;
          continue;
        }
        if (c === 47 && src.charCodeAt(pos + 1) === 42 /* * */) {
          const close = src.indexOf('*/', pos + 2);
          if (close < 0) throw staticError('Multi-line comment has no terminating */', this.file, pos, pos);
          pos = close + 1;
          continue;
        }
        break;
      }
      this.pos = pos;
      if (pos >= n) break;
      const start = pos;
      if (c < 128) {
        const p = PUNCT[c]!;
        if (p >= 0) {
          this.pos = pos + 1;
          this.emit(p, start, '');
          continue;
        }
      }
      if (isIdentFirst(c)) {
        let h = c;
        pos++;
        for (; pos < n; pos++) {
          const d = src.charCodeAt(pos);
          if (!isIdent(d)) break;
          h = hashStep(h, d);
        }
        this.pos = pos;
        const word = this.names.intern(src, start, pos, h, T_IDENTIFIER);
        const kind = this.names.payload;
        this.emit(kind, start, kind === T_IDENTIFIER ? word : '');
        continue;
      }
      if (isDigit(c)) {
        this.number(start);
        continue;
      }
      switch (c) {
        case 34: // "
        case 39: // '
          this.quoted(start, c);
          continue;
        case 64: // @
          this.verbatim(start);
          continue;
        case 124: // |
          if (src.charCodeAt(pos + 1) === 124 && src.charCodeAt(pos + 2) === 124) {
            this.textBlock(start);
            continue;
          }
      }
      if (isSymbol(c)) {
        this.operator(start);
        continue;
      }
      const ch = String.fromCodePoint(src.codePointAt(pos)!);
      throw staticError(`Could not lex the character ${quoteRuneAscii(ch)}`, this.file, pos, pos);
    }
    this.pos = this.n;
    this.emit(T_EOF, this.n, '');
    return {
      file: this.file,
      count: this.count,
      kinds: this.kinds,
      starts: this.starts,
      ends: this.ends,
      data: this.data,
      blockIndents: this.blockIndents,
    };
  }

  /** Records a token ending at this.pos. */
  private emit(kind: number, start: number, data: string): void {
    const i = this.count;
    if (i === this.kinds.length) this.grow();
    this.kinds[i] = kind;
    this.starts[i] = start;
    this.ends[i] = this.pos;
    this.data[i] = data;
    this.count = i + 1;
  }

  private grow(): void {
    const capacity = this.kinds.length * 2;
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const starts = new Int32Array(capacity);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(capacity);
    ends.set(this.ends);
    this.ends = ends;
    const data = new Array<string>(capacity).fill('');
    for (let i = 0; i < this.count; i++) data[i] = this.data[i]!;
    this.data = data;
  }

  private fail(message: string, at: number): never {
    throw staticError(message, this.file, at, at);
  }

  /** go-jsonnet's number automaton: 0 | [1-9][0-9]*, then optional .[0-9]+ and [eE][+-]?[0-9]+. */
  private number(start: number): void {
    const src = this.src;
    let pos = start;
    if (src.charCodeAt(pos) === 48) pos++;
    else while (isDigit(src.charCodeAt(pos))) pos++;
    let c = src.charCodeAt(pos);
    if (c === 46 /* . */) {
      pos++;
      if (!isDigit(src.charCodeAt(pos))) this.numberJunk('decimal point', pos);
      while (isDigit(src.charCodeAt(pos))) pos++;
      c = src.charCodeAt(pos);
    }
    if (c === 101 || c === 69 /* e E */) {
      pos++;
      c = src.charCodeAt(pos);
      if (c === 43 || c === 45 /* + - */) {
        pos++;
        if (!isDigit(src.charCodeAt(pos))) this.numberJunk('exponent sign', pos);
      } else if (!isDigit(c)) this.numberJunk("'E'", pos);
      while (isDigit(src.charCodeAt(pos))) pos++;
    }
    this.pos = pos;
    this.emit(T_NUMBER, start, src.slice(start, pos));
  }

  private numberJunk(what: string, pos: number): never {
    const shown = pos < this.n ? String.fromCodePoint(this.src.codePointAt(pos)!) : '';
    return this.fail(`Couldn't lex number, junk after ${what}: ${quoteRuneAscii(shown)}`, pos);
  }

  /** "..." or '...': the raw contents are kept; escapes are decoded by the parser. */
  private quoted(start: number, quote: number): void {
    const src = this.src;
    const n = this.n;
    let pos = start + 1;
    // Most literals have no backslash before their closing quote: two native
    // searches find the end instead of a loop over every character (the
    // bench library's help texts are 100-400 characters each; its scan went
    // from 34 to 30 ms of CPU, medians of 15 interleaved runs).
    const close = src.indexOf(quote === 34 ? '"' : "'", pos);
    if (close >= 0 && this.backslashFrom(pos) > close) {
      this.pos = close + 1;
      this.emit(quote === 34 ? T_STRING_DOUBLE : T_STRING_SINGLE, start, src.slice(pos, close));
      return;
    }
    for (;;) {
      if (pos >= n) this.fail('Unterminated String', start);
      const r = src.charCodeAt(pos++);
      if (r === quote) break;
      if (r === 92 /* \ */ && pos < n) pos++;
    }
    this.pos = pos;
    this.emit(quote === 34 ? T_STRING_DOUBLE : T_STRING_SINGLE, start, src.slice(start + 1, pos - 1));
  }

  /**
   * The position of the first backslash at or after `pos` (the text's length
   * if none). Cached: scanning only moves forward, so the searches together
   * read the text once, however many literals ask.
   */
  private backslashFrom(pos: number): number {
    if (this.nextBackslash < pos) {
      const i = this.src.indexOf('\\', pos);
      this.nextBackslash = i < 0 ? this.n : i;
    }
    return this.nextBackslash;
  }

  /** @"..." or @'...': a doubled quote stands for one quote. */
  private verbatim(start: number): void {
    const src = this.src;
    const q = src.charCodeAt(start + 1);
    if (q !== 34 && q !== 39) {
      // go-jsonnet prints the rune with %v, i.e. as its code point number.
      const shown = start + 1 < this.n ? src.codePointAt(start + 1) : -1;
      this.fail(`Couldn't lex verbatim string, junk after '@': ${shown}`, start);
    }
    const quote = q === 34 ? '"' : "'";
    let pos = start + 2;
    let data = '';
    for (;;) {
      const close = src.indexOf(quote, pos);
      if (close < 0) this.fail('Unterminated String', start);
      if (src.charCodeAt(close + 1) === q) {
        data += src.slice(pos, close + 1);
        pos = close + 2;
      } else {
        data += src.slice(pos, close);
        pos = close + 1;
        break;
      }
    }
    this.pos = pos;
    this.emit(q === 34 ? T_VERBATIM_DOUBLE : T_VERBATIM_SINGLE, start, data);
  }

  /** An operator (or `$`): the longest run of symbol characters, minus bad enders. */
  private operator(start: number): void {
    const src = this.src;
    const n = this.n;
    if (!(start > this.runStart && start < this.runEnd)) {
      this.runStart = start;
      let p = start + 1;
      while (p < n) {
        const c = src.charCodeAt(p);
        if (!isSymbol(c)) break;
        // A comment or a text block starts inside the run: the run ends before it.
        if (c === 47 && (src.charCodeAt(p + 1) === 47 || src.charCodeAt(p + 1) === 42)) break;
        if (c === 124 && src.charCodeAt(p + 1) === 124 && src.charCodeAt(p + 2) === 124) break;
        p++;
      }
      this.runEnd = p;
      this.runLastEnder = -1;
      for (let q = p - 1; q >= start; q--) {
        if (BAD_ENDER[src.charCodeAt(q)] !== 1) {
          this.runLastEnder = q;
          break;
        }
      }
    }
    // Operators may not end in + - ~ ! $ unless one character long (so `a+-b` is `a + -b`).
    const end = this.runLastEnder >= start ? Math.max(start + 1, this.runLastEnder + 1) : start + 1;
    this.pos = end;
    if (end === start + 1 && src.charCodeAt(start) === 36) {
      this.emit(T_DOLLAR, start, '');
      return;
    }
    let h = 0;
    for (let p = start; p < end; p++) h = hashStep(h, src.charCodeAt(p));
    this.emit(T_OPERATOR, start, this.names.intern(src, start, end, h, T_OPERATOR));
  }

  /** A `|||` text block: the common indentation of its lines is removed. */
  private textBlock(start: number): void {
    const src = this.src;
    let pos = start + 3;
    let chomp = false;
    if (src.charCodeAt(pos) === 45 /* - */) {
      chomp = true;
      pos++;
    }
    for (let c = src.charCodeAt(pos); c === 32 || c === 9 || c === 13; c = src.charCodeAt(++pos));
    if (src.charCodeAt(pos) !== 10) this.fail('Text block requires new line after |||.', start);
    pos++;
    const parts: string[] = [];
    while (src.charCodeAt(pos) === 10) {
      parts.push('\n');
      pos++;
    }
    let ws = 0;
    for (let c = src.charCodeAt(pos); c === 32 || c === 9; c = src.charCodeAt(pos + ws)) ws++;
    if (ws === 0) this.fail("Text block's first line must start with whitespace", start);
    const indent = src.slice(pos, pos + ws);
    for (;;) {
      pos += ws;
      const nl = src.indexOf('\n', pos);
      if (nl < 0) this.fail('Unexpected EOF', start);
      parts.push(src.slice(pos, nl + 1));
      pos = nl + 1;
      while (src.charCodeAt(pos) === 10) {
        parts.push('\n');
        pos++;
      }
      ws = src.startsWith(indent, pos) ? indent.length : 0;
      if (ws === 0) {
        const termStart = pos;
        for (let c = src.charCodeAt(pos); c === 32 || c === 9; c = src.charCodeAt(++pos));
        const termIndent = src.slice(termStart, pos);
        if (!src.startsWith('|||', pos)) this.fail('Text block not terminated with |||', start);
        pos += 3;
        let body = parts.join('');
        if (chomp) body = body.slice(0, -1);
        this.pos = pos;
        this.blockIndents.set(this.count, [indent, termIndent]);
        this.emit(T_STRING_BLOCK, start, body);
        return;
      }
    }
  }
}
