/**
 * Source files and positions shared by every language (Jsonnet, YAKL, Go
 * templates, Cleat). Nodes keep [start, end) offsets; line and column are
 * computed on demand from a file's line starts, so parsing never pays for them.
 * Lines and columns are 1-based, columns count UTF-16 code units + 1 the way
 * go-jsonnet counts runes is handled by the language that needs it.
 */

/** One source text with a display name (a path, `<cmdline>`, `<stdin>`...). */
export class SourceFile {
  private lineStarts: number[] | undefined;
  constructor(
    readonly name: string,
    readonly text: string,
  ) {}

  private starts(): number[] {
    if (this.lineStarts) return this.lineStarts;
    const starts = [0];
    const t = this.text;
    for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 10) starts.push(i + 1);
    this.lineStarts = starts;
    return starts;
  }

  /** 1-based line and column of an offset (binary search over line starts). */
  position(offset: number): Position {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }

  /** The text of 1-based line `line`, without its newline. */
  lineText(line: number): string {
    const starts = this.starts();
    const s = starts[line - 1];
    if (s === undefined) return '';
    const e = line < starts.length ? starts[line]! - 1 : this.text.length;
    return this.text.slice(s, e);
  }
}

export interface Position {
  line: number;
  column: number;
}

/** A range [start, end) of offsets in one file. */
export interface Span {
  file: SourceFile;
  start: number;
  end: number;
}

/** A problem found in user input, with where and why. */
export interface Diagnostic {
  /** Stable code such as JSONNET_PARSE, YAKL_BAD_KEY, TPL_EXEC (listed in docs/errors.md). */
  code: string;
  message: string;
  span?: Span;
  /** The value's path, such as `spec.template.spec.containers[0]`, where one applies. */
  path?: string;
}

/** `file:line:col` for a span, as the tools we mirror print it. */
export function formatLocation(span: Span): string {
  const p = span.file.position(span.start);
  return `${span.file.name}:${p.line}:${p.column}`;
}
