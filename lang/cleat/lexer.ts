/**
 * The Cleat scanner: source text → tokens with [start, end) offsets. It never
 * throws; problems become CLEAT_LEX diagnostics and the scanner skips ahead.
 * Strings are scanned whole: their literal text is decoded here and each
 * `\(expr)` interpolation is kept as an offset range that the parser parses
 * with a sub-scanner over the same SourceFile, so spans stay exact.
 * Invariant: `nlBefore` is true when a newline separates a token from the
 * previous one; the parser uses it to stop postfix calls at line breaks.
 */
import type { Diagnostic, SourceFile } from '../common/source.js';
import { CleatCodes } from './diagnostics.js';

export type TokenKind = 'ident' | 'keyword' | 'int' | 'float' | 'string' | 'punct' | 'eof';

export type StringPart = { kind: 'text'; value: string } | { kind: 'expr'; start: number; end: number };

export interface Token {
  kind: TokenKind;
  /** Identifier or keyword name, punctuation text, or the number's source text. */
  text: string;
  start: number;
  end: number;
  nlBefore: boolean;
  /** For strings: literal text and interpolations, in order. */
  parts?: StringPart[];
}

const KEYWORDS = new Set([
  'type',
  'input',
  'let',
  'fn',
  'export',
  'import',
  'refine',
  'after',
  'from',
  'as',
  'with',
  'where',
  'if',
  'then',
  'else',
  'match',
  'for',
  'in',
  'null',
  'true',
  'false',
  'self',
]);

// Longest first so that `...` wins over `..` and `.`.
const PUNCTS = [
  '...',
  '..',
  '=>',
  '->',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '+:',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  ',',
  ':',
  ';',
  '.',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '!',
  '|',
  '?',
];

const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Scans [start, end) of `file`. Diagnostics are appended to `diags`. */
export function scan(file: SourceFile, diags: Diagnostic[], start = 0, end = file.text.length): Token[] {
  const text = file.text;
  const tokens: Token[] = [];
  let i = start;
  let nl = false;
  const err = (s: number, e: number, message: string): void => {
    diags.push({ code: CleatCodes.LEX, message, span: { file, start: s, end: e } });
  };

  while (i < end) {
    const c = text[i]!;
    if (c === '\n') {
      nl = true;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < end && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      if (close < 0 || close + 2 > end) {
        err(i, i + 2, 'unterminated block comment');
        i = end;
        continue;
      }
      if (text.slice(i, close).includes('\n')) nl = true;
      i = close + 2;
      continue;
    }
    const s = i;
    if (isIdentStart(c)) {
      while (i < end && isIdentPart(text[i]!)) i++;
      const word = text.slice(s, i);
      tokens.push({ kind: KEYWORDS.has(word) ? 'keyword' : 'ident', text: word, start: s, end: i, nlBefore: nl });
      nl = false;
      continue;
    }
    if (isDigit(c)) {
      let isFloat = false;
      while (i < end && (isDigit(text[i]!) || text[i] === '_')) i++;
      if (text[i] === '.' && isDigit(text[i + 1] ?? '')) {
        isFloat = true;
        i++;
        while (i < end && isDigit(text[i]!)) i++;
      }
      if (text[i] === 'e' || text[i] === 'E') {
        let j = i + 1;
        if (text[j] === '+' || text[j] === '-') j++;
        if (isDigit(text[j] ?? '')) {
          isFloat = true;
          i = j;
          while (i < end && isDigit(text[i]!)) i++;
        }
      }
      const numEnd = i;
      if (i < end && isIdentPart(text[i]!)) {
        while (i < end && isIdentPart(text[i]!)) i++;
        err(s, i, `malformed number \`${text.slice(s, i)}\``);
      }
      tokens.push({
        kind: isFloat ? 'float' : 'int',
        text: text.slice(s, numEnd).replace(/_/g, ''),
        start: s,
        end: i,
        nlBefore: nl,
      });
      nl = false;
      continue;
    }
    if (c === '"') {
      const triple = text.startsWith('"""', i);
      const r = triple ? scanBlockString(file, i, end, err) : scanString(file, i, end, err);
      tokens.push({ kind: 'string', text: text.slice(s, r.end), start: s, end: r.end, nlBefore: nl, parts: r.parts });
      nl = false;
      i = r.end;
      continue;
    }
    const p = PUNCTS.find((q) => text.startsWith(q, i));
    if (p) {
      tokens.push({ kind: 'punct', text: p, start: s, end: s + p.length, nlBefore: nl });
      nl = false;
      i += p.length;
      continue;
    }
    err(i, i + 1, `unexpected character \`${c}\``);
    i++;
  }
  tokens.push({ kind: 'eof', text: '', start: end, end, nlBefore: true });
  return tokens;
}

interface Scanned {
  parts: StringPart[];
  end: number;
}

type ErrFn = (s: number, e: number, m: string) => void;

/** Finds the `)` closing an interpolation that starts at `i` (just after `\(`), skipping nested strings. */
function interpolationEnd(text: string, i: number, end: number): number {
  let depth = 1;
  while (i < end) {
    const c = text[i]!;
    if (c === '"') {
      i++;
      while (i < end && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
    else if (c === '\n') return -1;
    i++;
  }
  return -1;
}

/**
 * Decodes one escape at `i` (pointing at the backslash). Pushes text or an
 * interpolation onto `parts` and returns the offset after it.
 */
function scanEscape(
  text: string,
  i: number,
  end: number,
  parts: StringPart[],
  push: (s: string) => void,
  err: ErrFn,
): number {
  const e = text[i + 1];
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '0': '\0' };
  if (e !== undefined && simple[e] !== undefined) {
    push(simple[e]);
    return i + 2;
  }
  if (e === '(') {
    const close = interpolationEnd(text, i + 2, end);
    if (close < 0) {
      err(i, i + 2, 'unterminated interpolation `\\(`');
      return end;
    }
    parts.push({ kind: 'expr', start: i + 2, end: close });
    return close + 1;
  }
  if (e === 'u') {
    let hex: string;
    let next: number;
    if (text[i + 2] === '{') {
      const close = text.indexOf('}', i + 3);
      hex = close < 0 ? '' : text.slice(i + 3, close);
      next = close + 1;
    } else {
      hex = text.slice(i + 2, i + 6);
      next = i + 6;
    }
    const cp = /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN;
    if (!(cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff && hex.length !== 4)) {
      err(i, i + 2, 'invalid unicode escape');
      return i + 2;
    }
    push(String.fromCodePoint(cp));
    return next;
  }
  err(i, i + 2, `unknown escape \`\\${e ?? ''}\``);
  return i + 2;
}

function scanString(file: SourceFile, start: number, end: number, err: ErrFn): Scanned {
  const text = file.text;
  const parts: StringPart[] = [];
  let buf = '';
  const push = (s: string): void => {
    buf += s;
  };
  const flush = (): void => {
    if (buf) parts.push({ kind: 'text', value: buf });
    buf = '';
  };
  let i = start + 1;
  while (i < end) {
    const c = text[i]!;
    if (c === '"') {
      flush();
      return { parts, end: i + 1 };
    }
    if (c === '\n') break;
    if (c === '\\') {
      if (text[i + 1] === '(') flush();
      i = scanEscape(text, i, end, parts, push, err);
      continue;
    }
    buf += c;
    i++;
  }
  err(start, i, 'unterminated string');
  flush();
  return { parts, end: i };
}

/**
 * `"""` blocks: content starts on the line after the opening quotes and ends at
 * a line holding only `"""`. That line's indentation is removed from every
 * line; the newline before the closing quotes is not part of the string.
 */
function scanBlockString(file: SourceFile, start: number, end: number, err: ErrFn): Scanned {
  const text = file.text;
  let i = start + 3;
  while (i < end && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  if (text[i] !== '\n') {
    err(start, i, 'a """ string starts on the line after the opening quotes');
    const eol = text.indexOf('\n', i);
    return { parts: [], end: eol < 0 || eol > end ? end : eol };
  }
  const contentStart = i + 1;
  // Find the closing line: optional indentation then `"""`.
  let lineStart = contentStart;
  let closeLine = -1;
  let closeQuote = -1;
  while (lineStart <= end) {
    let j = lineStart;
    while (j < end && (text[j] === ' ' || text[j] === '\t')) j++;
    if (text.startsWith('"""', j) && j + 3 <= end) {
      closeLine = lineStart;
      closeQuote = j;
      break;
    }
    const nl = text.indexOf('\n', lineStart);
    if (nl < 0 || nl >= end) break;
    lineStart = nl + 1;
  }
  if (closeLine < 0) {
    err(start, start + 3, 'unterminated """ string');
    return { parts: [], end };
  }
  const indent = text.slice(closeLine, closeQuote);
  const parts: StringPart[] = [];
  let buf = '';
  const push = (s: string): void => {
    buf += s;
  };
  const flush = (): void => {
    if (buf) parts.push({ kind: 'text', value: buf });
    buf = '';
  };
  const contentEnd = closeLine > contentStart ? closeLine - 1 : contentStart; // drop the last newline
  i = contentStart;
  let atLineStart = true;
  while (i < contentEnd) {
    if (atLineStart) {
      atLineStart = false;
      const lineEnd = text.indexOf('\n', i);
      const stop = lineEnd < 0 || lineEnd > contentEnd ? contentEnd : lineEnd;
      const line = text.slice(i, stop);
      if (line.startsWith(indent)) i += indent.length;
      else if (line.trim() === '') {
        i = stop;
        continue;
      } else err(i, stop, 'line is indented less than the closing """');
      continue;
    }
    const c = text[i]!;
    if (c === '\n') {
      buf += '\n';
      i++;
      atLineStart = true;
      continue;
    }
    if (c === '\\') {
      if (text[i + 1] === '(') flush();
      i = scanEscape(text, i, contentEnd, parts, push, err);
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return { parts, end: closeQuote + 3 };
}
