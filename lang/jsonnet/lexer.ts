/**
 * Jsonnet lexer: turns source text into tokens, as go-jsonnet's lexer does.
 * Invariants: every token keeps its [start, end) offsets and the comments and
 * whitespace ("fodder") that precede it, so a formatter can be built on the
 * token stream; the last token is always `eof` (carrying trailing fodder).
 * Errors are thrown as static JsonnetErrors at the offset go-jsonnet reports.
 */
import type { SourceFile } from '../common/source.js';
import { staticError } from './errors.js';

export type TokenKind =
  | '{'
  | '}'
  | '['
  | ']'
  | ','
  | '$'
  | '.'
  | '('
  | ')'
  | ';'
  | 'IDENTIFIER'
  | 'NUMBER'
  | 'OPERATOR'
  | 'STRING_BLOCK'
  | 'STRING_DOUBLE'
  | 'STRING_SINGLE'
  | 'VERBATIM_STRING_DOUBLE'
  | 'VERBATIM_STRING_SINGLE'
  | 'assert'
  | 'else'
  | 'error'
  | 'false'
  | 'for'
  | 'function'
  | 'if'
  | 'import'
  | 'importstr'
  | 'importbin'
  | 'in'
  | 'local'
  | 'null'
  | 'self'
  | 'super'
  | 'tailstrict'
  | 'then'
  | 'true'
  | 'end of file';

/** One piece of fodder: whitespace or a comment, verbatim. */
export interface FodderItem {
  kind: 'whitespace' | 'comment';
  text: string;
}

export interface Token {
  kind: TokenKind;
  /** Identifier/operator/number text, or a string literal's raw (still escaped) contents. */
  data: string;
  start: number;
  end: number;
  fodder: FodderItem[];
  /** Text blocks only: the indentation of the block and of the closing `|||`. */
  blockIndent?: string;
  blockTermIndent?: string;
}

/** Jsonnet's keywords: the one list the lexer, formatter, YAKL and render/ share. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'assert',
  'else',
  'error',
  'false',
  'for',
  'function',
  'if',
  'import',
  'importstr',
  'importbin',
  'in',
  'local',
  'null',
  'self',
  'super',
  'tailstrict',
  'then',
  'true',
]);

/** go-jsonnet's IsValidIdentifier: a name usable as a bare field or variable. */
export function isJsonnetIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !KEYWORDS.has(s);
}

const HAS_CONTENT: ReadonlySet<TokenKind> = new Set<TokenKind>([
  'IDENTIFIER',
  'NUMBER',
  'OPERATOR',
  'STRING_BLOCK',
  'STRING_DOUBLE',
  'STRING_SINGLE',
  'VERBATIM_STRING_DOUBLE',
  'VERBATIM_STRING_SINGLE',
]);

/** How go-jsonnet prints a token inside an error message. */
export function describeToken(t: Token): string {
  const kindName = t.kind.length === 1 ? `"${t.kind}"` : t.kind;
  if (KEYWORDS.has(t.kind)) return `"${t.kind}"`;
  if (t.data === '') return kindName;
  if (HAS_CONTENT.has(t.kind)) return `(${kindName}, "${t.data}")`;
  return `"${t.data}"`;
}

export function describeKind(k: TokenKind): string {
  return k.length === 1 ? `"${k}"` : k;
}

const SYMBOLS = '!$:~+-&|^=<>*/%';
function isSymbol(c: string): boolean {
  return c !== '' && SYMBOLS.includes(c);
}
function isIdentFirst(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isIdent(c: number): boolean {
  return isIdentFirst(c) || (c >= 48 && c <= 57);
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
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

/** Length of `indent` if `s` starts with it (the whole block indentation), else 0. */
function matchIndent(indent: string, s: string): number {
  for (let i = 0; i < indent.length; i++) if (s[i] !== indent[i]) return 0;
  return indent.length;
}

export function lex(file: SourceFile): Token[] {
  const src = file.text;
  const n = src.length;
  const tokens: Token[] = [];
  let pos = 0;
  let fodder: FodderItem[] = [];
  let runStart = -1;
  let runEnd = -1;
  let runLastEnder = -1;

  const emit = (kind: TokenKind, start: number, data = ''): Token => {
    const t: Token = { kind, data, start, end: pos, fodder };
    tokens.push(t);
    fodder = [];
    return t;
  };

  while (true) {
    const wsStart = pos;
    while (pos < n) {
      const c = src[pos];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') pos++;
      else break;
    }
    if (pos > wsStart) fodder.push({ kind: 'whitespace', text: src.slice(wsStart, pos) });
    if (pos >= n) break;
    const start = pos;
    const c = src[pos]!;
    switch (c) {
      case '{':
      case '}':
      case '[':
      case ']':
      case ',':
      case '.':
      case '(':
      case ')':
      case ';':
        pos++;
        emit(c, start);
        continue;
      case '"':
      case "'": {
        pos++;
        for (;;) {
          if (pos >= n) throw staticError('Unterminated String', file, start, start);
          const r = src[pos++];
          if (r === c) break;
          if (r === '\\' && pos < n) pos++;
        }
        emit(c === '"' ? 'STRING_DOUBLE' : 'STRING_SINGLE', start, src.slice(start + 1, pos - 1));
        continue;
      }
      case '@': {
        pos++;
        const q = src[pos] ?? '';
        if (q !== '"' && q !== "'") {
          // go-jsonnet prints the rune with %v, i.e. as its code point number.
          throw staticError(
            `Couldn't lex verbatim string, junk after '@': ${q === '' ? -1 : q.codePointAt(0)}`,
            file,
            start,
            start,
          );
        }
        pos++;
        let data = '';
        for (;;) {
          if (pos >= n) throw staticError('Unterminated String', file, start, start);
          const r = src[pos++]!;
          if (r === q) {
            if (src[pos] === q) {
              data += q;
              pos++;
            } else break;
          } else data += r;
        }
        emit(q === '"' ? 'VERBATIM_STRING_DOUBLE' : 'VERBATIM_STRING_SINGLE', start, data);
        continue;
      }
    }
    if (isDigit(c)) {
      lexNumber(start);
      continue;
    }
    const code = src.charCodeAt(pos);
    if (isIdentFirst(code)) {
      while (pos < n && isIdent(src.charCodeAt(pos))) pos++;
      const word = src.slice(start, pos);
      if (KEYWORDS.has(word)) emit(word as TokenKind, start);
      else emit('IDENTIFIER', start, word);
      continue;
    }
    if (isSymbol(c) || c === '#') {
      lexSymbol(start);
      continue;
    }
    const ch = String.fromCodePoint(src.codePointAt(pos)!);
    throw staticError(`Could not lex the character ${quoteRuneAscii(ch)}`, file, pos, pos);
  }
  emit('end of file', pos);
  return tokens;

  function lexNumber(start: number): void {
    type S = 'begin' | 'zero' | 'digits' | 'dot' | 'frac' | 'e' | 'esign' | 'exp';
    let state: S = 'begin';
    for (;;) {
      const r = src[pos] ?? '';
      const junk = (what: string): never => {
        const shown = r === '' ? '' : String.fromCodePoint(src.codePointAt(pos)!);
        throw staticError(`Couldn't lex number, junk after ${what}: ${quoteRuneAscii(shown)}`, file, pos, pos);
      };
      let next: S | null = null;
      switch (state) {
        case 'begin':
          next = r === '0' ? 'zero' : 'digits';
          break;
        case 'zero':
          if (r === '.') next = 'dot';
          else if (r === 'e' || r === 'E') next = 'e';
          break;
        case 'digits':
          if (r === '.') next = 'dot';
          else if (r === 'e' || r === 'E') next = 'e';
          else if (isDigit(r)) next = 'digits';
          break;
        case 'dot':
          if (isDigit(r)) next = 'frac';
          else junk('decimal point');
          break;
        case 'frac':
          if (r === 'e' || r === 'E') next = 'e';
          else if (isDigit(r)) next = 'frac';
          break;
        case 'e':
          if (r === '+' || r === '-') next = 'esign';
          else if (isDigit(r)) next = 'exp';
          else junk("'E'");
          break;
        case 'esign':
          if (isDigit(r)) next = 'exp';
          else junk('exponent sign');
          break;
        case 'exp':
          if (isDigit(r)) next = 'exp';
          break;
      }
      if (next === null) break;
      state = next;
      pos++;
    }
    emit('NUMBER', start, src.slice(start, pos));
  }

  function lexSymbol(start: number): void {
    const r = src[pos]!;
    pos++;
    if (r === '#' || (r === '/' && src[pos] === '/')) {
      while (pos < n && src[pos] !== '\n') pos++;
      fodder.push({ kind: 'comment', text: src.slice(start, pos) });
      return;
    }
    if (r === '/' && src[pos] === '*') {
      const close = src.indexOf('*/', pos + 1);
      if (close < 0) throw staticError('Multi-line comment has no terminating */', file, start, start);
      pos = close + 2;
      fodder.push({ kind: 'comment', text: src.slice(start, pos) });
      return;
    }
    if (r === '|' && src.startsWith('||', pos)) {
      lexTextBlock(start);
      return;
    }
    // The symbol run (and its last character that may end an operator) is cached so
    // that a long run such as `-----` lexes in linear time, one operator at a time.
    if (!(start > runStart && start < runEnd)) {
      runStart = start;
      let p = start + 1;
      while (p < n && isSymbol(src[p]!)) {
        if (src[p] === '/' && (src[p + 1] === '/' || src[p + 1] === '*')) break;
        if (src[p] === '|' && src.startsWith('||', p + 1)) break;
        p++;
      }
      runEnd = p;
      runLastEnder = -1;
      for (let q = p - 1; q >= start; q--) {
        if (!'+-~!$'.includes(src[q]!)) {
          runLastEnder = q;
          break;
        }
      }
    }
    // Operators may not end in + - ~ ! $ unless one character long (so `a+-b` is `a + -b`).
    pos = runLastEnder >= start ? Math.max(start + 1, runLastEnder + 1) : start + 1;
    const text = src.slice(start, pos);
    if (text === '$') emit('$', start);
    else emit('OPERATOR', start, text);
  }

  function lexTextBlock(start: number): void {
    pos += 2;
    let chomp = false;
    if (src[pos] === '-') {
      chomp = true;
      pos++;
    }
    while (pos < n && (src[pos] === ' ' || src[pos] === '\t' || src[pos] === '\r')) pos++;
    if (src[pos] !== '\n') throw staticError('Text block requires new line after |||.', file, start, start);
    pos++;
    let body = '';
    while (src[pos] === '\n') {
      body += '\n';
      pos++;
    }
    let ws = 0;
    while (pos + ws < n && (src[pos + ws] === ' ' || src[pos + ws] === '\t')) ws++;
    const indent = src.slice(pos, pos + ws);
    if (ws === 0) throw staticError("Text block's first line must start with whitespace", file, start, start);
    for (;;) {
      pos += ws;
      for (;;) {
        if (pos >= n) throw staticError('Unexpected EOF', file, start, start);
        const ch = src[pos++]!;
        if (ch === '\n') break;
        body += ch;
      }
      body += '\n';
      while (src[pos] === '\n') {
        body += '\n';
        pos++;
      }
      ws = matchIndent(indent, src.slice(pos, pos + indent.length));
      if (ws === 0) {
        const termStart = pos;
        while (src[pos] === ' ' || src[pos] === '\t') pos++;
        const termIndent = src.slice(termStart, pos);
        if (!src.startsWith('|||', pos)) throw staticError('Text block not terminated with |||', file, start, start);
        pos += 3;
        if (chomp) body = body.slice(0, -1);
        const t = emit('STRING_BLOCK', start, body);
        t.blockIndent = indent;
        t.blockTermIndent = termIndent;
        return;
      }
    }
  }
}
