/**
 * Turns what a command can throw into the text kubecfg prints. Every
 * module's error is a KubecfgError and prints its own text (which already
 * says where and why); anything else is an internal error, reported with its
 * stack so it can be fixed, and still never crashes the worker.
 */
import { KubecfgError } from '../../lang/common/errors.js';

/** An overlay the YAKL spec refuses, located at the overlay file's line. */
export class YaklOverlayError extends KubecfgError {
  readonly code = 'YAKL_OVERLAY';
}

/** A result eval cannot print as asked (e.g. --show-keys of a non-object). */
export class EvalError extends KubecfgError {
  readonly code = 'CMD_EVAL_OUTPUT';
}

export function describeError(err: unknown): string {
  if (err instanceof KubecfgError) return err.describe();
  if (err instanceof RangeError && /call stack/i.test(err.message))
    return 'max stack frames exceeded (the native stack overflowed)';
  return `internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
