/**
 * The error of `kubecfg traceback`'s pure half (render/traceback): a bad
 * `FILE:LINE` argument, a line that holds no field, an object without
 * provenance annotations, a path kubecfg cannot follow. The message says
 * where (file:line or the value path) and why; code RENDER_TRACEBACK.
 */
import { KubecfgError } from '../../lang/common/errors.js';
export class TracebackError extends KubecfgError {
  readonly code = 'RENDER_TRACEBACK';
  constructor(message: string) {
    super(message);
    this.name = 'TracebackError';
  }
}
