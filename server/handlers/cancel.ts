/** `request/cancel`: aborts a streamed command by its requestId; the stream then ends with -31999. */
import type { CancelParams, CancelResult } from '../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';

export function cancel(ctx: DaemonContext, params: CancelParams): CancelResult {
  return { cancelled: ctx.inFlight.cancel(params.requestId) };
}
