/**
 * Stage 1: the YAML-aware lexer. It walks YAML text, finds every `${` that
 * starts a node in plain (unquoted) position, reads the Jsonnet expression to
 * its matching `}`, and replaces it by an opaque placeholder made of a
 * private-use character absent from the text. Comments, quoted scalars and
 * block scalars are skipped whole (a quoted or block scalar whose value is an
 * expression is recognized later, from its parsed value). Invariants: the
 * output differs from the input only inside replaced expressions, and
 * `toSource` maps any offset of the output back to the input.
 */
import { scanToClosingBrace } from './jsonnet-scan.js';

export interface PlainExpression {
  /** Offsets in the lexer's input: `${` at `start`, `}` at `end - 1`. */
  start: number;
  end: number;
  placeholder: string;
  /** Inside a flow collection ([...] or {...}), where `,` and brackets end a plain scalar. */
  inFlow: boolean;
}

export interface LexResult {
  text: string;
  marker: string;
  expressions: PlainExpression[];
  /** Maps an offset of `text` to the input offset. */
  toSource(offset: number): number;
}

export interface LexFailure {
  at: number;
  code: string;
  reason: string;
  /** When set, the Jsonnet code whose parse error explains the failure. */
  jsonnetCode?: { start: number; end: number };
}

export class LexError extends Error {
  constructor(readonly failure: LexFailure) {
    super(failure.reason);
  }
}

/** The first private-use character that doesn't occur in `text`. */
function pickMarker(text: string): string {
  for (let cp = 0xe000; cp <= 0xf8ff; cp++) {
    const ch = String.fromCharCode(cp);
    if (!text.includes(ch)) return ch;
  }
  for (let cp = 0xf0000; cp <= 0xffffd; cp++) {
    const ch = String.fromCodePoint(cp);
    if (!text.includes(ch)) return ch;
  }
  throw new LexError({
    at: 0,
    code: 'YAKL_ENCODING',
    reason: 'every private-use character occurs in this file; no placeholder can be built',
  });
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isBreakOrEnd = (c: string | undefined): boolean => c === undefined || c === '\n';
const isBlankOrEnd = (c: string | undefined): boolean => isSpace(c) || isBreakOrEnd(c);

export function lexYakl(text: string, marker = pickMarker(text)): LexResult {
  const n = text.length;
  const out: string[] = [];
  const expressions: PlainExpression[] = [];
  // Pairs of (output offset, input offset) at the start of each replacement and after it.
  const mapOut: number[] = [0];
  const mapIn: number[] = [0];
  let copied = 0;
  let outLen = 0;
  let pos = 0;
  let flow = 0;
  let nodeStart = true;
  let lineIndent = 0;
  let lineStart = 0;
  let lineIsDocStart = false;

  const fail = (at: number, code: string, reason: string, jsonnetCode?: { start: number; end: number }): never => {
    throw new LexError({ at, code, reason, jsonnetCode });
  };

  const flushTo = (p: number): void => {
    out.push(text.slice(copied, p));
    outLen += p - copied;
    copied = p;
  };

  const skipToEol = (): void => {
    while (pos < n && text[pos] !== '\n') pos++;
  };

  const readExpression = (): void => {
    const start = pos;
    const r = scanToClosingBrace(text, pos + 2);
    if (!r.ok) {
      // A line that ends in } was most likely meant as an expression: let Jsonnet explain it.
      const eol = text.indexOf('\n', start);
      const lineRest = text.slice(start, eol < 0 ? n : eol).trimEnd();
      if (lineRest.endsWith('}') && lineRest.length > 3) {
        fail(start, 'YAKL_EXPR', r.reason, { start: start + 2, end: start + lineRest.length - 1 });
      }
      fail(start, 'YAKL_UNTERMINATED', 'unterminated expression: ${ has no matching }');
    }
    if (!r.ok) return;
    const end = r.end + 1;
    if (text.slice(start + 2, r.end).trim() === '') fail(start, 'YAKL_EMPTY_EXPR', 'empty expression ${}');
    // Only a key colon, flow punctuation or a comment may follow on the line.
    let q = end;
    while (isSpace(text[q])) q++;
    const c = text[q];
    const ok =
      isBreakOrEnd(c) ||
      (c === ':' && (isBlankOrEnd(text[q + 1]) || flow > 0)) ||
      (c === '#' && q > end) ||
      (flow > 0 && (c === ',' || c === ']' || c === '}'));
    if (!ok) {
      fail(
        q,
        'YAKL_AFTER_EXPR',
        'unexpected text after an expression: a string that starts with ${ must be exactly one expression ' +
          '(only a key colon, flow punctuation or a comment may follow); start literal text with $${, or build the string in Jsonnet',
      );
    }
    const placeholder = `${marker}${expressions.length}${marker}`;
    expressions.push({ start, end, placeholder, inFlow: flow > 0 });
    flushTo(start);
    out.push(placeholder);
    outLen += placeholder.length;
    copied = end;
    mapOut.push(outLen);
    mapIn.push(end);
    pos = end;
    nodeStart = false;
  };

  const skipQuoted = (q: string): void => {
    const s = pos;
    pos++;
    for (;;) {
      if (pos >= n) fail(s, 'YAKL_YAML', 'unterminated quoted scalar');
      const c = text[pos]!;
      if (q === '"' && c === '\\') {
        pos += 2;
        continue;
      }
      if (c === q) {
        if (q === "'" && text[pos + 1] === "'") {
          pos += 2;
          continue;
        }
        pos++;
        return;
      }
      pos++;
    }
  };

  const skipBlockScalar = (): void => {
    // Header (indicators, comment) to the end of the line, then every line that is
    // blank or indented more than the line holding the header.
    skipToEol();
    const parentIndent = lineIsDocStart ? -1 : lineIndent;
    while (pos < n) {
      const next = pos + 1;
      let p = next;
      while (text[p] === ' ') p++;
      const blank = p >= n || text[p] === '\n' || (text[p] === '\t' && /^[\t ]*(\n|$)/.test(text.slice(p, p + 200)));
      if (!blank && p - next <= parentIndent) break;
      if (parentIndent < 0 && /^(---|\.\.\.)(\s|$)/.test(text.slice(next, next + 4))) break;
      pos = next;
      skipToEol();
    }
  };

  const skipProperty = (): void => {
    // An anchor (&x) or tag (!t) up to the next blank.
    const s = pos;
    const isAnchor = text[pos] === '&';
    while (pos < n && !isBlankOrEnd(text[pos]) && !(flow > 0 && ',[]{}'.includes(text[pos]!))) pos++;
    const token = text.slice(s, pos);
    if (isAnchor && token.endsWith(':') && flow === 0) {
      fail(
        s,
        'YAKL_UNQUOTED_LOCAL_KEY',
        `${token} is a YAML anchor on an empty key; a local key must be quoted: '${token.slice(0, -1)}':`,
      );
    }
    if (isAnchor) {
      let q = pos;
      while (isSpace(text[q])) q++;
      if (text[q] === '&') {
        fail(
          s,
          'YAKL_TWO_ANCHORS',
          "a node can have only one anchor (&a &b). Beware: on a document's first line, kubectl silently reads this as a null document and skips the rest of it",
        );
      }
    }
  };

  while (pos < n) {
    const c = text[pos]!;
    if (c === '\n') {
      pos++;
      lineStart = pos;
      let p = pos;
      while (text[p] === ' ') p++;
      lineIndent = p - pos;
      lineIsDocStart = false;
      if (flow === 0) {
        nodeStart = true;
        if (lineIndent === 0 && /^(---|\.\.\.)(\s|$)/.test(text.slice(pos, pos + 4))) {
          lineIsDocStart = text[pos] === '-';
          pos += 3;
        } else if (lineIndent === 0 && text[pos] === '%') {
          skipToEol();
        }
      }
      continue;
    }
    if (isSpace(c)) {
      pos++;
      continue;
    }
    if (pos === 0 && lineStart === 0) {
      if (/^(---|\.\.\.)(\s|$)/.test(text.slice(0, 4))) {
        lineIsDocStart = text[0] === '-';
        pos = 3;
        continue;
      }
      if (c === '%') {
        skipToEol();
        continue;
      }
    }
    const prevBlank = pos === 0 || isSpace(text[pos - 1]) || text[pos - 1] === '\n';
    if (c === '#' && prevBlank) {
      skipToEol();
      continue;
    }
    if (nodeStart) {
      if (c === '$' && text[pos + 1] === '{') {
        readExpression();
        continue;
      }
      if ((c === '-' || c === '?' || c === ':') && isBlankOrEnd(text[pos + 1]) && (flow === 0 || c !== '-')) {
        pos++;
        continue;
      }
      if (c === '&' || c === '!') {
        skipProperty();
        continue;
      }
      if (c === '"' || c === "'") {
        skipQuoted(c);
        nodeStart = false;
        continue;
      }
      if ((c === '|' || c === '>') && flow === 0) {
        skipBlockScalar();
        continue;
      }
      if (c === '[' || c === '{') {
        flow++;
        pos++;
        continue;
      }
      if (flow > 0 && (c === ']' || c === '}')) {
        flow--;
        pos++;
        nodeStart = false;
        continue;
      }
      if (flow > 0 && c === ',') {
        pos++;
        continue;
      }
      nodeStart = false;
      pos++;
      continue;
    }
    // Inside a plain scalar or after a node.
    if (c === ':' && (isBlankOrEnd(text[pos + 1]) || (flow > 0 && ',[]{}'.includes(text[pos + 1] ?? '')))) {
      pos++;
      nodeStart = true;
      continue;
    }
    if (flow > 0) {
      if (c === ',') nodeStart = true;
      else if (c === ']' || c === '}') flow--;
      else if (c === '[' || c === '{') {
        flow++;
        nodeStart = true;
      }
    }
    pos++;
  }
  flushTo(n);
  const outText = out.join('');
  return {
    text: outText,
    marker,
    expressions,
    toSource(offset: number): number {
      let lo = 0;
      let hi = mapOut.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (mapOut[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      const inExprIndex = lo;
      // Inside a placeholder: map to the expression's start.
      const ex = expressions[inExprIndex];
      if (ex && inExprIndex < expressions.length) {
        const phStart = mapOut[inExprIndex + 1]! - ex.placeholder.length;
        if (offset >= phStart && offset < mapOut[inExprIndex + 1]!) return ex.start;
      }
      return mapIn[lo]! + (offset - mapOut[lo]!);
    },
  };
}
