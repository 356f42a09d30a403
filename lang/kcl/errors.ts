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
  ImmutableError: 'E1001',
  AttributeError: 'E2A31',
  AssertionError: 'E3M40',
  RecursionError: 'E3M42',
};

export interface KclPos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** A second place an error points at (where a check is, where a variable was declared). */
export interface KclRelated {
  readonly pos: KclPos;
  readonly sourceLine: string;
  readonly text: string;
  /** Draw a caret under the column (KCL leaves it out for a failed check condition). */
  readonly caret: boolean;
}

export class KclError extends Error {
  constructor(
    readonly kind: KclErrorKind,
    readonly detail: string,
    readonly pos?: KclPos,
    /** The text of the source line at pos, for the caret display. */
    readonly sourceLine?: string,
    readonly related: readonly KclRelated[] = [],
    readonly notes: readonly string[] = [],
    /** kcl draws no caret under errors raised while running (a failed assert, a missing required value). */
    readonly caret = true,
  ) {
    super(
      `${kind}: ${pos ? `${pos.file}:${pos.line}:${pos.col}: ` : ''}${detail}` +
        related.map((r) => `; ${r.pos.file}:${r.pos.line}:${r.pos.col}: ${r.text}`).join(''),
    );
  }

  /** The multi-line form `kcl run` prints on stderr. */
  render(): string {
    let out = `error[${CODES[this.kind]}]: ${this.kind}\n`;
    if (!this.pos) return `${out}${this.detail}\n`;
    out += block(this.pos, this.sourceLine ?? '', this.detail, this.caret);
    for (const r of this.related) out += block(r.pos, r.sourceLine, r.text, r.caret);
    for (const n of this.notes) out += `note: ${n}\n`;
    return out;
  }
}

function block(pos: KclPos, src: string, text: string, caret: boolean): string {
  const gutter = ' '.repeat(String(pos.line).length);
  // Without a caret kcl prints the message after one more space, and nothing for an empty one.
  const mark = caret ? `${' '.repeat(Math.max(0, pos.col - 1))}^ ${text}` : text ? ` ${text}` : '';
  return (
    `${gutter}--> ${pos.file}:${pos.line}:${pos.col}\n` +
    `${gutter} |\n` +
    `${pos.line} | ${src}\n` +
    `${gutter} | ${mark}\n` +
    `${gutter} |\n`
  );
}

/** Thrown by built-ins and calls; the evaluator turns it into a KclError at the call site. */
export class CallError extends Error {
  constructor(
    readonly kind: KclErrorKind,
    message: string,
    readonly caret = true,
  ) {
    super(message);
  }
}
