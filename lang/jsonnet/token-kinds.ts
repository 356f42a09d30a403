/**
 * Numeric codes of Jsonnet's token kinds, for the scanner's typed arrays and
 * the parser's comparisons (a small integer compare instead of a string
 * compare in every `peek`). Invariant: KIND_NAMES[code] is the TokenKind
 * string the public lexer API reports, and the keyword codes follow the
 * order of KEYWORD_LIST.
 */
import type { TokenKind } from './lexer.js';

export const T_LBRACE = 0;
export const T_RBRACE = 1;
export const T_LBRACKET = 2;
export const T_RBRACKET = 3;
export const T_COMMA = 4;
export const T_DOLLAR = 5;
export const T_DOT = 6;
export const T_LPAREN = 7;
export const T_RPAREN = 8;
export const T_SEMICOLON = 9;
export const T_IDENTIFIER = 10;
export const T_NUMBER = 11;
export const T_OPERATOR = 12;
export const T_STRING_BLOCK = 13;
export const T_STRING_DOUBLE = 14;
export const T_STRING_SINGLE = 15;
export const T_VERBATIM_DOUBLE = 16;
export const T_VERBATIM_SINGLE = 17;
export const T_ASSERT = 18;
export const T_ELSE = 19;
export const T_ERROR = 20;
export const T_FALSE = 21;
export const T_FOR = 22;
export const T_FUNCTION = 23;
export const T_IF = 24;
export const T_IMPORT = 25;
export const T_IMPORTSTR = 26;
export const T_IMPORTBIN = 27;
export const T_IN = 28;
export const T_LOCAL = 29;
export const T_NULL = 30;
export const T_SELF = 31;
export const T_SUPER = 32;
export const T_TAILSTRICT = 33;
export const T_THEN = 34;
export const T_TRUE = 35;
export const T_EOF = 36;

/** Jsonnet's keywords, in the order of their codes (T_ASSERT first). */
export const KEYWORD_LIST: readonly TokenKind[] = [
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
];

export const KIND_NAMES: readonly TokenKind[] = [
  '{',
  '}',
  '[',
  ']',
  ',',
  '$',
  '.',
  '(',
  ')',
  ';',
  'IDENTIFIER',
  'NUMBER',
  'OPERATOR',
  'STRING_BLOCK',
  'STRING_DOUBLE',
  'STRING_SINGLE',
  'VERBATIM_STRING_DOUBLE',
  'VERBATIM_STRING_SINGLE',
  ...KEYWORD_LIST,
  'end of file',
];

const CODES = new Map<TokenKind, number>(KIND_NAMES.map((k, i) => [k, i]));

/** The code of a TokenKind name. */
export function kindCode(kind: TokenKind): number {
  return CODES.get(kind)!;
}
