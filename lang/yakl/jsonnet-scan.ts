/**
 * Finds where a `${...}` expression ends, with awareness of Jsonnet's lexical
 * syntax: braces inside string literals, verbatim strings, text blocks and
 * comments don't count, and `\{` YAML blocks nested in the code are skipped
 * whole (their extent follows the indentation rule of the spec) and reported
 * so the caller can compile them in place. The scanner never throws: it
 * returns a failure with the offset where the expression stopped making sense,
 * and callers turn that into a located error (usually by letting the Jsonnet
 * parser report the exact problem).
 */

/** A `\{` YAML block inside expression code, as offsets of the scanned text. */
export interface YamlBlock {
  /** Offset of the backslash. */
  open: number;
  /** Offset of the first character of the first content line (its line start). */
  contentStart: number;
  /** Offset just after the last content line's newline (the closing line's start). */
  contentEnd: number;
  /** Offset of the closing `}`. */
  close: number;
}

export type ScanResult = { ok: true; end: number; blocks: YamlBlock[] } | { ok: false; at: number; reason: string };

function lineEnd(text: string, pos: number): number {
  const e = text.indexOf('\n', pos);
  return e < 0 ? text.length : e;
}

function indentOf(text: string, lineStart: number): number {
  let p = lineStart;
  while (text[p] === ' ' || text[p] === '\t') p++;
  return p - lineStart;
}

/** True when the line from `lineStart` is blank or holds only a YAML comment. */
function isBlankOrComment(text: string, lineStart: number): boolean {
  const p = lineStart + indentOf(text, lineStart);
  return p >= text.length || text[p] === '\n' || text[p] === '#';
}

/**
 * Scans Jsonnet code starting at `start` (just after `${` or another opening
 * brace) until the `}` that closes depth 1. `end` is the offset of that `}`.
 */
export function scanToClosingBrace(text: string, start: number): ScanResult {
  const n = text.length;
  const blocks: YamlBlock[] = [];
  let depth = 1;
  let pos = start;
  while (pos < n) {
    const c = text[pos]!;
    switch (c) {
      case '{':
        depth++;
        pos++;
        continue;
      case '}':
        depth--;
        if (depth === 0) return { ok: true, end: pos, blocks };
        pos++;
        continue;
      case '"':
      case "'": {
        const s = pos;
        pos++;
        while (pos < n && text[pos] !== c) pos += text[pos] === '\\' ? 2 : 1;
        if (pos >= n) return { ok: false, at: s, reason: 'unterminated string' };
        pos++;
        continue;
      }
      case '@': {
        const q = text[pos + 1];
        if (q !== '"' && q !== "'") {
          pos++;
          continue;
        }
        const s = pos;
        pos += 2;
        for (;;) {
          if (pos >= n) return { ok: false, at: s, reason: 'unterminated string' };
          if (text[pos] === q) {
            if (text[pos + 1] === q) pos += 2;
            else break;
          } else pos++;
        }
        pos++;
        continue;
      }
      case '#':
        pos = lineEnd(text, pos);
        continue;
      case '/':
        if (text[pos + 1] === '/') {
          pos = lineEnd(text, pos);
          continue;
        }
        if (text[pos + 1] === '*') {
          const close = text.indexOf('*/', pos + 2);
          if (close < 0) return { ok: false, at: pos, reason: 'unterminated comment' };
          pos = close + 2;
          continue;
        }
        pos++;
        continue;
      case '|':
        if (text.startsWith('|||', pos)) {
          const r = skipTextBlock(text, pos);
          if (r < 0) return { ok: false, at: pos, reason: 'unterminated text block' };
          pos = r;
          continue;
        }
        pos++;
        continue;
      case '\\':
        if (text[pos + 1] === '{') {
          const b = scanYamlBlock(text, pos);
          if ('reason' in b) return { ok: false, at: b.at, reason: b.reason };
          blocks.push(b);
          pos = b.close + 1;
          continue;
        }
        pos++;
        continue;
      default:
        pos++;
    }
  }
  return { ok: false, at: start, reason: 'no matching }' };
}

/** Offset just after a text block's closing `|||`, or -1. Mirrors Jsonnet's rule. */
function skipTextBlock(text: string, start: number): number {
  let pos = start + 3;
  if (text[pos] === '-') pos++;
  while (text[pos] === ' ' || text[pos] === '\t') pos++;
  if (text[pos] !== '\n') return -1;
  pos++;
  while (text[pos] === '\n') pos++;
  const ws = indentOf(text, pos);
  if (ws === 0) return -1;
  const indent = text.slice(pos, pos + ws);
  for (;;) {
    const e = lineEnd(text, pos);
    if (e >= text.length) return -1;
    pos = e + 1;
    while (text[pos] === '\n') pos++;
    if (!text.startsWith(indent, pos)) {
      const p = pos + indentOf(text, pos);
      return text.startsWith('|||', p) ? p + 3 : -1;
    }
  }
}

/** The extent of a `\{` YAML block starting at the backslash `open`. */
function scanYamlBlock(text: string, open: number): YamlBlock | { at: number; reason: string } {
  let p = open + 2;
  while (text[p] === ' ' || text[p] === '\t') p++;
  if (text[p] === '#') p = lineEnd(text, p);
  if (p < text.length && text[p] !== '\n') {
    return { at: open, reason: '\\{ must end its line; only a YAML comment may follow it' };
  }
  const contentStart = p + 1;
  let line = contentStart;
  let indent = -1;
  while (line < text.length) {
    if (!isBlankOrComment(text, line)) {
      const ind = indentOf(text, line);
      if (indent < 0 && text[line + ind] === '}') return { open, contentStart, contentEnd: line, close: line + ind };
      if (indent < 0) indent = ind;
      else if (ind < indent) {
        if (text[line + ind] !== '}') {
          return {
            at: line + ind,
            reason: 'a \\{ YAML block must end with a line that starts with }, indented less than its content',
          };
        }
        return { open, contentStart, contentEnd: line, close: line + ind };
      }
    }
    const e = lineEnd(text, line);
    line = e + 1;
  }
  return { at: open, reason: 'unterminated \\{ YAML block: no closing } indented less than its content' };
}
