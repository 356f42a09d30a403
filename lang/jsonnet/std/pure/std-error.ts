/**
 * The one error type every pure std function throws. It carries only the
 * message go-jsonnet prints after "RUNTIME ERROR: "; the evaluator (J1) adds
 * that prefix and the stack trace. Invariant: no pure std function lets any
 * other exception (RangeError, TypeError...) escape for any JsonValue input.
 */
export class StdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StdError';
  }
}
