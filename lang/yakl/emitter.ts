/**
 * A code writer that keeps generated Jsonnet on the source's lines. `moveTo`
 * pads with line breaks and spaces up to a source line and column; it never
 * goes backwards, so code emitted out of source order simply stays on the
 * current line (and only that code points at another line). Inside `flat`,
 * moves are ignored, for code the compiler writes out of order on purpose.
 * In readable mode (for `eval -o jsonnet`) moves are ignored instead and the
 * structural calls (open, sep, close, comment) lay out one field or item per
 * line, or `{ a: 1 }` inline for YAML flow collections.
 */
export class Emitter {
  private readonly parts: string[] = [];
  private flatDepth = 0;
  private depth = 0;
  private pending: '' | 'open-block' | 'open-inline' | 'sep-block' | 'sep-inline' | 'break' = '';
  private readonly inline: boolean[] = [];
  line: number;
  column: number;

  constructor(
    line = 1,
    column = 1,
    readonly readable = false,
  ) {
    this.line = line;
    this.column = column;
  }

  moveTo(line: number, column: number): void {
    if (this.flatDepth > 0 || this.readable) return;
    if (line > this.line) {
      this.parts.push('\n'.repeat(line - this.line));
      this.line = line;
      this.column = 1;
    }
    if (line === this.line && column > this.column) {
      this.parts.push(' '.repeat(column - this.column));
      this.column = column;
    }
  }

  write(text: string): void {
    if (text === '') return;
    if (this.pending !== '') this.flushPending();
    this.raw(text);
  }

  private raw(text: string): void {
    this.parts.push(text);
    const nl = text.lastIndexOf('\n');
    if (nl < 0) this.column += text.length;
    else {
      let count = 0;
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
      this.line += count;
      this.column = text.length - nl;
    }
  }

  private indent(): string {
    return '\n' + '  '.repeat(this.depth);
  }

  private flushPending(): void {
    const p = this.pending;
    this.pending = '';
    if (p === 'open-block' || p === 'break') this.raw(this.indent());
    else if (p === 'open-inline') this.raw(' ');
    else if (p === 'sep-block') this.raw(',' + this.indent());
    else if (p === 'sep-inline') this.raw(', ');
  }

  /** Opens `{` or `[`; `inline` keeps a YAML flow collection on one line when readable. */
  open(ch: string, inline = false): void {
    this.write(ch);
    if (!this.readable) return;
    this.inline.push(inline);
    if (!inline) this.depth++;
    this.pending = inline ? 'open-inline' : 'open-block';
  }

  /** Ends a field or item. */
  sep(): void {
    if (!this.readable) {
      this.write(', ');
      return;
    }
    if (this.pending !== '') this.flushPending();
    this.pending = this.inline[this.inline.length - 1] ? 'sep-inline' : 'sep-block';
  }

  close(ch: string): void {
    if (!this.readable) {
      this.write(ch);
      return;
    }
    const inline = this.inline.pop() ?? false;
    if (!inline) this.depth--;
    const p = this.pending;
    this.pending = '';
    if (p === 'open-block' || p === 'open-inline') this.raw(ch);
    else if (inline) this.raw(' ' + ch);
    else if (p === 'sep-block') this.raw(',' + this.indent() + ch);
    else this.raw(this.indent() + ch);
  }

  /** A YAML comment as a `//` comment: after the current field when `trailing`, else on lines of its own. */
  comment(text: string | null | undefined, trailing: boolean): void {
    if (!this.readable || !text) return;
    const lines = text.split('\n').map((l) => l.replace(/^\s?/, ''));
    if (trailing && this.pending === 'sep-block') {
      this.pending = '';
      this.raw(',  // ' + lines.join(' '));
      this.pending = 'break';
      return;
    }
    if (this.pending === 'sep-block') {
      this.pending = '';
      this.raw(',');
      this.pending = 'break';
    }
    if (this.pending === 'open-inline' || this.pending === 'sep-inline' || this.inline[this.inline.length - 1]) return;
    for (const l of lines) {
      this.flushPending();
      this.raw('// ' + l);
      this.pending = 'break';
    }
  }

  flat<T>(fn: () => T): T {
    this.flatDepth++;
    try {
      return fn();
    } finally {
      this.flatDepth--;
    }
  }

  toString(): string {
    return this.parts.join('');
  }
}
