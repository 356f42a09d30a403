/**
 * Jsonnet tokens as objects: the public face of the lexer (token kinds, the
 * keyword list, how go-jsonnet prints a token in an error message). The
 * scanning itself is scanner.ts, which the parser reads directly.
 * Invariants: every token of `lex` keeps its [start, end) offsets and the
 * comments and whitespace ("fodder") that precede it; the last token is
 * always `end of file` (carrying trailing fodder). Errors are thrown as
 * static JsonnetErrors at the offset go-jsonnet reports.
 */
import type { SourceFile } from '../common/source.js';
import { quoteRuneAscii, scanTokens } from './scanner.js';
import { KEYWORD_LIST, KIND_NAMES } from './token-kinds.js';

export { quoteRuneAscii };

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
const KEYWORDS: ReadonlySet<string> = new Set(KEYWORD_LIST);

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
export function describeToken(t: Pick<Token, 'kind' | 'data'>): string {
  const kindName = t.kind.length === 1 ? `"${t.kind}"` : t.kind;
  if (KEYWORDS.has(t.kind)) return `"${t.kind}"`;
  if (t.data === '') return kindName;
  if (HAS_CONTENT.has(t.kind)) return `(${kindName}, "${t.data}")`;
  return `"${t.data}"`;
}

export function describeKind(k: TokenKind): string {
  return k.length === 1 ? `"${k}"` : k;
}

/**
 * Tokens of a whole file as objects, each with its fodder (comments and
 * whitespace before it, verbatim). For callers that want tokens one by one
 * (YAKL, tests); the parser reads the scanner's typed arrays instead.
 */
export function lex(file: SourceFile): Token[] {
  const buf = scanTokens(file);
  const src = file.text;
  const tokens: Token[] = new Array<Token>(buf.count);
  let gapStart = 0;
  for (let i = 0; i < buf.count; i++) {
    const start = buf.starts[i]!;
    const block = buf.blockIndents.get(i);
    tokens[i] = {
      kind: KIND_NAMES[buf.kinds[i]!]!,
      data: buf.data[i]!,
      start,
      end: buf.ends[i]!,
      fodder: gapFodder(src, gapStart, start),
      blockIndent: block?.[0],
      blockTermIndent: block?.[1],
    };
    gapStart = buf.ends[i]!;
  }
  return tokens;
}

/** Splits the text between two tokens (already checked by the scanner) into whitespace and comments. */
export function gapFodder(src: string, start: number, end: number): FodderItem[] {
  const out: FodderItem[] = [];
  let pos = start;
  while (pos < end) {
    const from = pos;
    const c = src.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      do pos++;
      while (pos < end && isBlank(src.charCodeAt(pos)));
      out.push({ kind: 'whitespace', text: src.slice(from, pos) });
    } else if (c === 47 && src.charCodeAt(pos + 1) === 42) {
      pos = src.indexOf('*/', pos + 2) + 2;
      out.push({ kind: 'comment', text: src.slice(from, pos) });
    } else {
      while (pos < end && src.charCodeAt(pos) !== 10) pos++;
      out.push({ kind: 'comment', text: src.slice(from, pos) });
    }
  }
  return out;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
