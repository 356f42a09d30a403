/**
 * The one error type of lang/kubocd. Its message is worded as the KuboCD
 * spec writes it (`module 'main': could not render 'values' template: line 2,
 * column 21: ...`) and never holds data or rendered text: only template text,
 * positions, function names, categories, and the messages of fail, required
 * and the KuboCD functions. `code` says which step failed.
 */
import { KubecfgError } from '../common/errors.js';

export type KubocdErrorCode =
  /** A template does not parse (unknown function, syntax). */
  | 'KUBOCD_PARSE'
  /** A template failed while running (fail, required, a function, an action). */
  | 'KUBOCD_EXEC'
  /** A limit was reached (rendered text size, function result size, until). */
  | 'KUBOCD_LIMIT'
  /** A manifest or a rendered text is not valid YAML, or has colliding/unconvertible map keys. */
  | 'KUBOCD_YAML'
  /** Parameters or context do not match the package schema. */
  | 'KUBOCD_SCHEMA'
  /** A manifest is not a valid Package, Release, Context or Config, or a rendered value has the wrong shape. */
  | 'KUBOCD_MANIFEST';

export class KubocdError extends KubecfgError {
  override name = 'KubocdError';
  constructor(
    message: string,
    readonly code: KubocdErrorCode,
  ) {
    super(message);
  }

  /** The same error with a place prepended (`module 'main': ...`). */
  within(prefix: string): KubocdError {
    return new KubocdError(`${prefix}: ${this.message}`, this.code);
  }
}
