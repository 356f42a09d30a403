/**
 * The one error type templates throw. Its message is worded as Go's
 * text/template prints it (`template: NAME:LINE:COL: executing "NAME" at <.X>: ...`),
 * so messages can be compared with Helm/Go output byte for byte; `code`,
 * `line` and `column` carry the same facts in structured form.
 */
import { KubecfgError } from '../common/errors.js';

export type TemplateErrorCode =
  /** Lexing or parsing failed. */
  | 'TPL_PARSE'
  /** Execution failed (type errors, missing keys with missingkey=error, function errors, `fail`). */
  | 'TPL_EXEC'
  /** A resource cap was hit: output size, loop length, recursion depth. */
  | 'TPL_LIMIT'
  /** A function that exists upstream but is not available here (non-hermetic). */
  | 'TPL_UNAVAILABLE';

export class TemplateError extends KubecfgError {
  override name = 'TemplateError';
  constructor(
    message: string,
    readonly code: TemplateErrorCode = 'TPL_EXEC',
    /** The template's parse name (file) the error points into, when known. */
    readonly templateName?: string,
    /** 1-based line, when known. */
    readonly line?: number,
    /** 0-based byte column as Go prints it, when known. */
    readonly column?: number,
  ) {
    super(message);
  }
}

/**
 * An error raised by a template function: exec wraps it as
 * `error calling NAME: MESSAGE`. `limit` marks resource caps (TPL_LIMIT).
 */
export class FuncError extends Error {
  constructor(
    message: string,
    readonly code: TemplateErrorCode = 'TPL_EXEC',
  ) {
    super(message);
  }
}
