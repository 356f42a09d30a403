/**
 * Rebuilds jsonnetfmt's structured fodder from the raw text between tokens.
 * The scanner (../scanner.ts) skips whitespace and comments, leaving them in
 * the gaps between tokens; the formatter needs them classified the way jsonnetfmt's lexer does
 * (line-end / interstitial / paragraph, blank lines, next-line indent, comment
 * margins stripped), following C++ jsonnetfmt 0.18's lexer where it differs
 * from go-jsonnet's (when a comment counts as starting its own line).
 * Invariants: one Fodder per token, in token order; the whitespace right
 * before end of file is dropped, as jsonnetfmt does.
 */
import type { TokenBuffer } from '../scanner.js';
import { fodderAppend, fodderElement, NO_COMMENT, type Fodder } from './fodder.js';
import { utf8ByteLength as utf8Length } from '../../common/utf8.js';

const isHorizontal = (c: string): boolean => c === ' ' || c === '\t' || c === '\r';

/** Removes up to `margin` leading blanks and all trailing blanks of a comment line. */
function stripLine(s: string, margin: number): string {
  const chars = Array.from(s);
  let i = 0;
  while (i < chars.length && i < margin && isHorizontal(chars[i]!)) i++;
  let j = chars.length;
  while (j > i && isHorizontal(chars[j - 1]!)) j--;
  return chars.slice(i, j).join('');
}

/** Scans the gaps between tokens; one instance per file (no per-token closures). */
class GapScanner {
  pos = 0;
  end = 0;
  /** Only whitespace since the last newline (or file start). */
  freshLine = true;
  newLines = 0;
  indent = 0;

  constructor(private readonly text: string) {}

  /** Skips whitespace, recording newlines and the next line's indent (tab = 8). */
  whitespace(): void {
    const text = this.text;
    let newLines = 0;
    let indent = 0;
    let pos = this.pos;
    while (pos < this.end) {
      const c = text.charCodeAt(pos);
      if (c === 10) {
        newLines++;
        indent = 0;
        this.freshLine = true;
      } else if (c === 32) indent++;
      else if (c === 9) indent += 8;
      else if (c !== 13) break;
      pos++;
    }
    this.pos = pos;
    this.newLines = newLines;
    this.indent = indent;
  }

  scan(fodder: Fodder, isEof: boolean): void {
    const text = this.text;
    for (;;) {
      this.whitespace();
      if (this.pos >= this.end) {
        if (!isEof && this.newLines > 0)
          fodder.push(fodderElement('lineEnd', this.newLines - 1, this.indent, NO_COMMENT));
        return;
      }
      if (this.newLines > 0) fodder.push(fodderElement('lineEnd', this.newLines - 1, this.indent, NO_COMMENT));
      const c = text[this.pos]!;
      if (c === '#' || (c === '/' && text[this.pos + 1] === '/')) this.lineComment(fodder);
      else this.blockComment(fodder);
    }
  }

  private lineComment(fodder: Fodder): void {
    const text = this.text;
    const wasFresh = this.freshLine;
    let end = this.pos;
    while (end < this.end && text[end] !== '\n') end++;
    let k = end;
    while (k > this.pos && isHorizontal(text[k - 1]!)) k--;
    const comment = text.slice(this.pos, k);
    this.pos = end;
    this.whitespace();
    const blanks = this.newLines > 0 ? this.newLines - 1 : 0;
    fodder.push(fodderElement(wasFresh ? 'paragraph' : 'lineEnd', blanks, this.indent, [comment]));
    this.freshLine = true;
  }

  /** Only `/* *\/` comments remain in a gap (the shared lexer accepted it). */
  private blockComment(fodder: Fodder): void {
    const text = this.text;
    const start = this.pos;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const margin = utf8Length(text.slice(lineStart, start));
    const close = text.indexOf('*/', start + 2);
    const end = close < 0 ? this.end : close + 2;
    const comment = text.slice(start, end);
    this.pos = end;
    // Unlike a token, a comment does not end a fresh line: `/* a */ // b` at the
    // start of a line makes `// b` a paragraph (whitespace() sets it on newlines).
    this.whitespace();
    if (!comment.includes('\n')) {
      fodder.push(fodderElement('interstitial', 0, 0, [comment]));
      if (this.newLines > 0) fodder.push(fodderElement('lineEnd', this.newLines - 1, this.indent, NO_COMMENT));
      return;
    }
    let lines = comment.split('\n').map((l) => stripLine(l, margin));
    // Keep a column of `*` aligned: give such lines a leading space.
    if (lines.every((l) => l.length > 0 && l[0] === '*')) lines = lines.map((l) => (l[0] === '*' ? ' ' + l : l));
    // A paragraph always ends with a line break.
    const newLines = this.newLines === 0 ? 1 : this.newLines;
    const indent = this.newLines === 0 ? 0 : this.indent;
    fodderAppend(fodder, fodderElement('paragraph', newLines - 1, indent, lines));
    this.freshLine = true;
  }
}

/** Fodder of every token, computed from the gaps of the file's text between tokens. */
export function tokenFodders(tokens: TokenBuffer): Fodder[] {
  const text = tokens.file.text;
  const out: Fodder[] = new Array<Fodder>(tokens.count);
  const scanner = new GapScanner(text);
  const last = tokens.count - 1;
  for (let i = 0; i <= last; i++) {
    const isEof = i === last;
    const fodder: Fodder = [];
    scanner.end = isEof ? text.length : tokens.starts[i]!;
    scanner.scan(fodder, isEof);
    out[i] = fodder;
    scanner.pos = tokens.ends[i]!;
    scanner.freshLine = false;
  }
  return out;
}
