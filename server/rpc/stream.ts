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
import { DIRECT_MIN_BYTES, openStdoutPipe, writeToPipe, type StdoutPipe } from './direct-stdout.js';

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
  // Output written into the client's pipe must land before anything sent after it through the
  // socket (the client copies that to the same or another stream): while a direct write runs,
  // later output waits in `queued`. Direct writes happen only before the first frame, since the
  // client may not have copied an earlier frame to its pipe yet when the daemon writes there.
  let pipeUsable = stdoutPipe !== undefined;
  let directCancelled = false;
  let writing: Promise<void> | null = null;
  const queued: (() => void)[] = [];
  const writeDirect = (data: Buffer): Promise<void> | null => {
    const pipe = openStdoutPipe(stdoutPipe!);
    if (pipe === undefined) return null;
    return writeToPipe(pipe, data, ctl.signal).then((error) => {
      if (error !== undefined) pipeUsable = false;
      else ctx.metrics.wroteDirect(data.length);
      // Stopped by a cancel or a hang-up: the response says so (RequestCancelled), not a failed stdout.
      if (error === 'ECANCELED') directCancelled = true;
      if (finished || res.destroyed || directCancelled) return;
      res.write(
        JSON.stringify({
          jsonrpc: '2.0',
          method: Notifications.direct,
          params: { requestId: params.requestId, stream: 'stdout', length: data.length, ...(error ? { error } : {}) },
        }) + '\n',
      );
    });
  };
  const emit = (stream: 'stdout' | 'stderr', data: Buffer): void => {
    if (writing !== null) {
      queued.push(() => emit(stream, data));
      return;
    }
    if (pipeUsable && stream === 'stdout' && data.length >= DIRECT_MIN_BYTES) {
      const direct = writeDirect(data);
      if (direct !== null) {
        writing = direct.then(() => {
          writing = null;
          while (writing === null && queued.length > 0) queued.shift()!();
        });
        return;
      }
    }
    if (data.length > 0) pipeUsable = false;
    writeFrame(stream, data);
  };
  /** Resolves once every direct write has ended and the output queued behind it has been sent. */
  const drained = async (): Promise<void> => {
    while (writing !== null) await writing;
  };
  const writeBytes = (stream: 'stdout' | 'stderr', data: Buffer): void =>
    stdoutPipe === undefined ? writeFrame(stream, data) : emit(stream, data);
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
    await drained();
    if (directCancelled) throw new JobCancelledError();
    last = JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n';
  } catch (err) {
    // The response line goes after the output already on its way into the client's pipe.
    await drained();
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
