/**
 * Turns what a command can throw into the text kubecfg prints. Known error
 * types keep their own message (which already says where and why); anything
 * else is an internal error, reported with its stack so it can be fixed, and
 * still never crashes the worker.
 */
import { CacheFileError } from '../../cache/index.js';
import { ImportError, JsonnetError } from '../../lang/jsonnet/index.js';
import { RenderError } from '../../render/index.js';
import { FeatureError } from '../../render/features/gates.js';
import { TemplateError } from '../../lang/gotemplate/index.js';
import { VarsError } from './engine.js';
import { ExportError } from './export-dir.js';
import { RcError } from '../../render/rc/rc-flags.js';
import { YaklError } from '../../lang/yakl/index.js';
import { CleatFileError } from './cleat-loader.js';

/** An overlay the YAKL spec refuses, located at the overlay file's line. */
export class YaklOverlayError extends Error {}

/** A result eval cannot print as asked (e.g. --show-keys of a non-object). */
export class EvalError extends Error {}

export function describeError(err: unknown): string {
  if (err instanceof JsonnetError) return err.format().trimEnd();
  if (
    err instanceof RenderError ||
    err instanceof FeatureError ||
    err instanceof EvalError ||
    err instanceof ExportError ||
    err instanceof TemplateError ||
    err instanceof VarsError ||
    err instanceof ImportError ||
    err instanceof RcError ||
    err instanceof YaklError ||
    err instanceof YaklOverlayError ||
    err instanceof CleatFileError
  ) {
    return err.message;
  }
  if (err instanceof CacheFileError) return err.message;
  if (err instanceof RangeError && /call stack/i.test(err.message))
    return 'max stack frames exceeded (the native stack overflowed)';
  return `internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
