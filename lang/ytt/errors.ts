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
  ) {
    super(where ? `${whereText(where)}: ${reason}` : reason);
    this.name = 'YttError';
  }
}
