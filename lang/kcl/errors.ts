/**
 * KCL's error kinds and the way `kcl run` prints them: a header naming the
 * kind (`error[E3M38]: EvaluationError`), the place (` --> file:line:col`),
 * the source line with a caret, and the message under it.
 */

export type KclErrorKind =
  | 'InvalidSyntax'
  | 'CompileError'
  | 'CannotFindModule'
  | 'TypeError'
  | 'EvaluationError'
  | 'ImmutableError'
  | 'AttributeError'
  | 'AssertionError'
  | 'RecursionError';

/** The codes `kcl` prints with each kind (kclvm's diagnostic table). */
const CODES: Record<KclErrorKind, string> = {
  InvalidSyntax: 'E1001',
  CompileError: 'E2L23',
  CannotFindModule: 'E2F04',
  TypeError: 'E2G22',
  EvaluationError: 'E3M38',
  ImmutableError: 'E3M41',
  AttributeError: 'E2A31',
  AssertionError: 'E3M40',
  RecursionError: 'E3M42',
};

export interface KclPos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export class KclError extends Error {
  constructor(
    readonly kind: KclErrorKind,
    readonly detail: string,
    readonly pos?: KclPos,
    /** The text of the source line at pos, for the caret display. */
    readonly sourceLine?: string,
  ) {
    super(`${kind}: ${pos ? `${pos.file}:${pos.line}:${pos.col}: ` : ''}${detail}`);
  }

  /** The multi-line form `kcl run` prints on stderr. */
  render(): string {
    const head = `error[${CODES[this.kind]}]: ${this.kind}\n`;
    if (!this.pos) return `${head}${this.detail}\n`;
    const { file, line, col } = this.pos;
    const gutter = ' '.repeat(String(line).length);
    const src = this.sourceLine ?? '';
    return (
      `${head}${gutter}--> ${file}:${line}:${col}\n` +
      `${gutter} |\n` +
      `${line} | ${src}\n` +
      `${gutter} | ${' '.repeat(Math.max(0, col - 1))}^ ${this.detail}\n` +
      `${gutter} |\n`
    );
  }
}
