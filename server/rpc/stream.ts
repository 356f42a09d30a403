/**
 * A streamed command response: HTTP 200 with an NDJSON body of `stream/output`
 * notifications, then the JSON-RPC response as the last line. The request is
 * registered in InFlight so `request/cancel` finds it; the client hanging up
 * cancels it too. Invariant: exactly one response line is written, and
 * nothing after it; output reaches the client in the order it was written,
 * also when some of it goes straight into the client's pipe (direct-stdout.ts).
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
import { PipeFirstOutput, type StdoutPipe } from './direct-stdout.js';

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
  /** The client's stdout pipe (framed unix-socket requests only): large stdout may be written there. */
  stdoutPipe?: StdoutPipe,
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
  const writeFrame = (stream: 'stdout' | 'stderr', data: Buffer): void => {
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
  // With the client's pipe offered, a large stdout may go straight into it (direct-stdout.ts).
  const pipeFirst =
    stdoutPipe === undefined
      ? undefined
      : new PipeFirstOutput(stdoutPipe, ctl.signal, writeFrame, (length, error) => {
          if (error === undefined) ctx.metrics.wroteDirect(length);
          if (finished || res.destroyed) return;
          res.write(
            JSON.stringify({
              jsonrpc: '2.0',
              method: Notifications.direct,
              params: { requestId: params.requestId, stream: 'stdout', length, ...(error ? { error } : {}) },
            }) + '\n',
          );
        });
  const writeBytes = (stream: 'stdout' | 'stderr', data: Buffer): void =>
    pipeFirst ? pipeFirst.write(stream, data) : writeFrame(stream, data);
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
    await pipeFirst?.drained();
    if (pipeFirst?.cancelled) throw new JobCancelledError();
    last = JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n';
  } catch (err) {
    // The response line goes after the output already on its way into the client's pipe.
    await pipeFirst?.drained();
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
