/**
 * Tokens of the Starlark that ytt data-values files use. Two block styles:
 * ytt templates close blocks with `end` (indentation means nothing there,
 * every `#@` line is one logical line), `.star` files use indentation, so the
 * lexer emits INDENT/DEDENT only when asked to.
 */
import { YttError, type Where } from '../errors.js';

export type TokKind =
  'ident' | 'int' | 'float' | 'string' | 'op' | 'kw' | 'newline' | 'indent' | 'dedent' | 'node' | 'eof';

export interface Token {
  kind: TokKind;
  text: string;
  /** decoded value of a string literal, numeric value of a number, node id */
  value?: string | number;
  where: Where;
}

/** One logical source line: text plus where it sits (for error positions). */
export interface SourceLine {
  text: string;
  file: string;
  line: number;
  /** 1-based column of text[0] in the file */
  column: number;
  /** a YAML node placeholder instead of code */
  node?: number;
}

const KEYWORDS = new Set([
  'and',
  'break',
  'continue',
  'def',
  'elif',
  'else',
  'end',
  'for',
  'if',
  'in',
  'lambda',
  'load',
  'not',
  'or',
  'pass',
  'return',
  'None',
  'True',
  'False',
]);

const OPS = [
  '**',
  '//=',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '<<',
  '>>',
  '|=',
  '&=',
  '->',
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
];

/** Tokenizes lines; `indentBlocks` turns leading whitespace into INDENT/DEDENT. */
export function tokenize(lines: SourceLine[], indentBlocks: boolean): Token[] {
  const out: Token[] = [];
  const indents = [0];
  let depth = 0; // bracket depth: newlines inside brackets are not statement ends
  let pendingString: { quote: string; raw: boolean; buf: string; where: Where } | undefined;
  for (const ln of lines) {
    const at = (i: number): Where => ({ file: ln.file, line: ln.line, column: ln.column + i });
    if (ln.node !== undefined) {
      out.push({ kind: 'node', text: '', value: ln.node, where: at(0) });
      out.push({ kind: 'newline', text: '', where: at(0) });
      continue;
    }
    const s = ln.text;
    let i = 0;
    if (pendingString) {
      i = scanStringBody(s, 0, pendingString, out);
      if (pendingString.buf === '\u0000done') pendingString = undefined;
      else {
        pendingString.buf += '\n';
        continue;
      }
    }
    if (depth === 0 && !pendingString) {
      let w = 0;
      while (w < s.length && (s.charAt(w) === ' ' || s.charAt(w) === '\t')) w++;
      if (w >= s.length || s.charAt(w) === '#') continue; // blank or comment line
      if (indentBlocks) {
        if (w > top(indents)) {
          indents.push(w);
          out.push({ kind: 'indent', text: '', where: at(w) });
        } else {
          while (w < top(indents)) {
            indents.pop();
            out.push({ kind: 'dedent', text: '', where: at(w) });
          }
          if (w !== top(indents)) throw new YttError(at(w), 'unindent does not match any outer indentation level');
        }
      }
      i = w;
    }
    let emitted = false;
    while (i < s.length) {
      const c = s.charAt(i);
      if (c === ' ' || c === '\t' || c === '\r') {
        i++;
        continue;
      }
      if (c === '#') break;
      if (c === '\\' && i === s.length - 1) {
        i++;
        depth += 0;
        break;
      }
      const start = i;
      if (/[A-Za-z_]/.test(c)) {
        // string prefix r"..."
        if ((c === 'r' || c === 'R') && (s[i + 1] === '"' || s[i + 1] === "'")) {
          i = startString(s, i + 1, true, at(start), out, (p) => (pendingString = p));
          emitted = true;
          continue;
        }
        while (i < s.length && /[A-Za-z0-9_]/.test(s.charAt(i))) i++;
        const word = s.slice(start, i);
        out.push({ kind: KEYWORDS.has(word) ? 'kw' : 'ident', text: word, where: at(start) });
        emitted = true;
        continue;
      }
      if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(s[i + 1] ?? ''))) {
        const m = /^(0[xX][0-9a-fA-F]+|0[oO][0-7]+|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/.exec(s.slice(i));
        const text = m![0];
        i += text.length;
        const isFloat = /[.eE]/.test(text) && !/^0[xX]/.test(text);
        const value = isFloat
          ? Number(text)
          : text.startsWith('0o') || text.startsWith('0O')
            ? parseInt(text.slice(2), 8)
            : Number(text);
        out.push({ kind: isFloat ? 'float' : 'int', text, value, where: at(start) });
        emitted = true;
        continue;
      }
      if (c === '"' || c === "'") {
        i = startString(s, i, false, at(start), out, (p) => (pendingString = p));
        emitted = true;
        continue;
      }
      const op = OPS.find((o) => s.startsWith(o, i));
      if (!op) throw new YttError(at(i), `unexpected character ${JSON.stringify(c)}`);
      if (op === '(' || op === '[' || op === '{') depth++;
      if (op === ')' || op === ']' || op === '}') depth = Math.max(0, depth - 1);
      out.push({ kind: 'op', text: op, where: at(start) });
      i += op.length;
      emitted = true;
    }
    if (emitted && depth === 0 && !pendingString) {
      if (out.at(-1)?.kind !== 'newline') out.push({ kind: 'newline', text: '', where: at(s.length) });
    }
  }
  if (pendingString) throw new YttError(pendingString.where, 'unterminated triple-quoted string');
  const lastLine = lines[lines.length - 1];
  const endWhere: Where = lastLine
    ? { file: lastLine.file, line: lastLine.line + 1, column: 1 }
    : { file: '', line: 1, column: 1 };
  if (out.length && out.at(-1)?.kind !== 'newline') out.push({ kind: 'newline', text: '', where: endWhere });
  while (indents.length > 1) {
    indents.pop();
    out.push({ kind: 'dedent', text: '', where: endWhere });
  }
  out.push({ kind: 'eof', text: '', where: endWhere });
  return out;
}

function startString(
  s: string,
  i: number,
  raw: boolean,
  where: Where,
  out: Token[],
  setPending: (p: { quote: string; raw: boolean; buf: string; where: Where }) => void,
): number {
  const q = s.charAt(i);
  const triple = s.startsWith(q + q + q, i);
  const quote = triple ? q + q + q : q;
  const st = { quote, raw, buf: '', where };
  const j = scanStringBody(s, i + quote.length, st, out);
  if (st.buf !== '\u0000done') {
    if (!triple) throw new YttError(where, 'unterminated string literal');
    st.buf += '\n';
    setPending(st);
  }
  return j;
}

/** Scans a string body from i; on the closing quote pushes the token and marks st done. */
function scanStringBody(
  s: string,
  i: number,
  st: { quote: string; raw: boolean; buf: string; where: Where },
  out: Token[],
): number {
  let buf = st.buf;
  while (i < s.length) {
    if (s.startsWith(st.quote, i)) {
      out.push({ kind: 'string', text: st.quote, value: buf, where: st.where });
      st.buf = '\u0000done';
      return i + st.quote.length;
    }
    const c = s[i];
    if (c === '\\' && !st.raw) {
      const n = s[i + 1];
      const simple: Record<string, string> = {
        n: '\n',
        t: '\t',
        r: '\r',
        '\\': '\\',
        '"': '"',
        "'": "'",
        '0': '\0',
        a: '\x07',
        b: '\b',
        f: '\f',
        v: '\v',
      };
      if (n === undefined) {
        i++;
        continue;
      }
      if (n in simple) {
        buf += simple[n];
        i += 2;
        continue;
      }
      if (n === 'x') {
        buf += String.fromCharCode(parseInt(s.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      if (n === 'u') {
        buf += String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
      buf += '\\' + n;
      i += 2;
      continue;
    }
    if (c === '\\' && st.raw && s[i + 1] !== undefined) {
      buf += c + s[i + 1];
      i += 2;
      continue;
    }
    buf += c;
    i++;
  }
  st.buf = buf;
  return i;
}

/** the innermost indentation; the stack always keeps the outermost level 0 */
function top(indents: number[]): number {
  return indents[indents.length - 1] ?? 0;
}
