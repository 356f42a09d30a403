/**
 * The base of every error a module raises for the user to read: a stable
 * code (listed in docs/errors.md) and a message that already says where and
 * why. Whoever prints errors (server/commands/errors.ts) needs one check,
 * `instanceof KubecfgError`, instead of knowing every module's class; an
 * error that is not one is an internal error. The code is abstract so each
 * module keeps its own constructor and its own closed set of codes.
 */
export abstract class KubecfgError extends Error {
  abstract readonly code: string;

  /** The text kubecfg prints for this error; the message unless a module formats more (Jsonnet's stack trace). */
  describe(): string {
    return this.message;
  }
}
