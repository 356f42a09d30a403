/**
 * The one error type of render/. Every failure carries a stable code
 * (RENDER_*) and a message that says where (a value path such as
 * `$.foo.bar[1]`, or a native function name) and why. Invariant: render/
 * never lets a JS TypeError/RangeError escape for bad input; callers catch
 * RenderError only.
 */
import { KubecfgError } from '../lang/common/errors.js';

export type RenderErrorCode =
  | 'RENDER_NOT_AN_OBJECT' // discovery met a scalar where a Kubernetes object was expected
  | 'RENDER_BAD_LIST' // a List's items are not objects
  | 'RENDER_BAD_METADATA' // labels/annotations are not string maps
  | 'RENDER_DUPLICATE' // two different objects with the same group/kind/namespace/name
  | 'RENDER_BAD_ARGUMENT' // a native function got an argument of the wrong type
  | 'RENDER_PARSE_JSON' // parseJson input is not JSON
  | 'RENDER_PARSE_YAML' // parseYaml input is not YAML (or is too large/aliased)
  | 'RENDER_REGEX' // a regular expression RE2 rejects
  | 'RENDER_UNSUPPORTED_VALUE' // a number JSON cannot carry (NaN, Infinity)
  | 'RENDER_TOO_DEEP'; // a value or document nested past what the renderer's stack allows

export class RenderError extends KubecfgError {
  readonly code: RenderErrorCode;
  /** Value path (`$.a.b[0]`) the error is about, when there is one. */
  readonly path: string | undefined;

  constructor(code: RenderErrorCode, message: string, path?: string) {
    super(message);
    this.name = 'RenderError';
    this.code = code;
    this.path = path;
  }
}

/** True for the RangeError V8 throws when the JS stack is exhausted. */
function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

/**
 * Runs fn, turning a JS stack overflow (from a value nested thousands of
 * levels deep) into a RenderError, so no RangeError escapes render/.
 */
export function guardDepth<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isStackOverflow(e)) throw new RenderError('RENDER_TOO_DEEP', 'input too deeply nested');
    throw e;
  }
}
