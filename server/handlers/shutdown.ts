/** `daemon/shutdown`: answers first, then stops (the reply must get out before the socket closes). */
import type { ShutdownParams, ShutdownResult } from '../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';

export function shutdown(ctx: DaemonContext, params: ShutdownParams): ShutdownResult {
  setTimeout(() => ctx.shutdown(params.reason ?? 'daemon/shutdown request'), 10);
  return { stopping: true };
}
