/**
 * A streamed command response: HTTP 200 with an NDJSON body of `stream/output`
 * notifications, then the JSON-RPC response as the last line. The request is
 * registered in InFlight so `request/cancel` finds it; the client hanging up
 * cancels it too. Invariant: exactly one response line is written, and
 * nothing after it.
 */
import type { ServerResponse } from 'node:http';
import {
  ErrorCodes,
  FRAMED_CONTENT_TYPE,
  NDJSON_CONTENT_TYPE,
  Notifications,
  type CommandParams,
} from '../../protocol/index.js';
import type { DaemonContext } from '../daemon-context.js';
import { JobCancelledError, WorkerCrashedError } from '../worker/pool.js';
import type { StreamingHandler } from './router.js';
import type { OutputSink } from '../command-runner.js';

type Id = string | number | null;

export function errorLine(id: Id, code: number, message: string, data?: unknown): string {
  return (
    JSON.stringify({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }) +
    '\n'
  );
}

export async function serveStream(
  ctx: DaemonContext,
  method: string,
  id: Id,
  params: CommandParams,
  handler: StreamingHandler,
  res: ServerResponse,
  onClientGone: (listener: () => void) => void,
  /** The client accepts FRAMED_CONTENT_TYPE: output goes as raw bytes, not JSON strings in JSON lines. */
  framed = false,
): Promise<'ok' | 'error' | 'cancelled'> {
  const ctl = ctx.inFlight.begin(params.requestId);
  if (!ctl) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(errorLine(id, ErrorCodes.DuplicateRequestId, `requestId ${params.requestId} is already in flight`));
    return 'error';
  }
  res.writeHead(200, {
    'content-type': framed ? FRAMED_CONTENT_TYPE : NDJSON_CONTENT_TYPE,
    'cache-control': 'no-store',
  });
  let finished = false;
  onClientGone(() => {
    if (!finished) ctl.abort();
  });
  const writeBytes = (stream: 'stdout' | 'stderr', data: Buffer): void => {
    if (finished || res.destroyed || data.length === 0) return;
    res.write(
      JSON.stringify({
        jsonrpc: '2.0',
        method: Notifications.bytes,
        params: { requestId: params.requestId, stream, length: data.length },
      }) + '\n',
    );
    res.write(data);
  };
  const sink: OutputSink = {
    ...(framed ? { writeBytes } : {}),
    write(stream: 'stdout' | 'stderr', data: string): void {
      if (framed) {
        writeBytes(stream, Buffer.from(data, 'utf8'));
        return;
      }
      if (finished || res.destroyed) return;
      res.write(
        JSON.stringify({
          jsonrpc: '2.0',
          method: Notifications.output,
          params: { requestId: params.requestId, stream, data },
        }) + '\n',
      );
    },
  };
  let outcome: 'ok' | 'error' | 'cancelled' = 'ok';
  let last: string;
  try {
    const result = await handler(ctx, params, sink, ctl.signal);
    last = JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n';
  } catch (err) {
    if (err instanceof JobCancelledError) {
      outcome = 'cancelled';
      last = errorLine(id, ErrorCodes.RequestCancelled, 'the request was cancelled');
    } else if (err instanceof WorkerCrashedError) {
      outcome = 'error';
      last = errorLine(id, ErrorCodes.WorkerCrashed, err.message);
    } else {
      outcome = 'error';
      ctx.logger.error({ err, method }, 'command failed inside the daemon');
      last = errorLine(id, ErrorCodes.InternalError, `internal error in ${method}: ${(err as Error).message}`);
    }
  } finally {
    ctx.inFlight.end(params.requestId, ctl);
  }
  finished = true;
  if (!res.destroyed) res.end(last);
  return outcome;
}
