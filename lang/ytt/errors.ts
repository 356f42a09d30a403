/**
 * Every failure of lang/ytt is a YttError: where (file:line:column, or a
 * data-values path) and why. Overlay and schema failures keep ytt's wording
 * so a user who knows ytt recognises them.
 */
export interface Where {
  file: string;
  line: number;
  column: number;
}

export function whereText(w: Where | undefined): string {
  if (!w) return '';
  return `${w.file}:${w.line}:${w.column}`;
}

export class YttError extends Error {
  constructor(
    readonly where: Where | undefined,
    readonly reason: string,
    /** ytt's nested context lines above the reason ("Templating file 'x':", ...), outermost first */
    readonly context: string[] = [],
  ) {
    super(where ? `${whereText(where)}: ${reason}` : reason);
    this.name = 'YttError';
  }
}

/** ytt's layout of a nested error: each context line indented two spaces under the previous one. */
export function nestedText(lines: string[], indent = 0): string {
  return lines.map((l, i) => ' '.repeat(indent + 2 * i) + l).join('\n');
}
