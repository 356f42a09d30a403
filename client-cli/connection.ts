/**
 * JSON-RPC over HTTP on the daemon's unix socket, with node:net only
 * (socket-http.ts: node:http alone costs the CLI more start-up time than a
 * warm command's round trip). `rpcCall` does one request/response; `rpcStream`
 * reads an NDJSON body of notifications ending in the JSON-RPC response.
 * Connection failures surface as ConnectError so the launcher can tell "no
 * daemon" (ENOENT/ECONNREFUSED) from "daemon answered with an error" (RpcCallError).
 */
import {
  FRAMED_CONTENT_TYPE,
  Notifications,
  RPC_PATH,
  STDOUT_PIPE_HEADER,
  type BytesNotificationParams,
  type RpcError,
} from '../protocol/index.js';
import { describeTarget, postOverSocket, type DaemonTarget, type PostHandle } from './socket-http.js';

export type { DaemonTarget, TcpTarget } from './socket-http.js';

export class ConnectError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
}

export class RpcCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

/** The daemon went away while a streamed request was in progress. */
export class StreamBrokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamBrokenError';
  }
}

interface RpcResponse {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: RpcError;
  method?: string;
  params?: unknown;
}

let nextId = 1;

function unauthorized(target: DaemonTarget): string {
  return `the kubecfg daemon at ${describeTarget(target)} refused the token (401): check --daemon-token-file or KUBECFG_DAEMON_TOKEN`;
}

function toConnectError(err: NodeJS.ErrnoException, target: DaemonTarget): ConnectError {
  return new ConnectError(
    err.code ?? 'EUNKNOWN',
    `cannot reach the kubecfg daemon at ${describeTarget(target)}: ${err.message}`,
  );
}

export function rpcCall<R>(target: DaemonTarget, method: string, params: unknown, timeoutMs = 5000): Promise<R> {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return new Promise<R>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = 0;
    postOverSocket(
      target,
      RPC_PATH,
      body,
      {
        onHead: (code) => (status = code),
        onBody: (c) => chunks.push(c),
        onError: (err) => reject(toConnectError(err, target)),
        onEnd: () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (status === 401) {
            reject(new RpcCallError(-32001, unauthorized(target)));
            return;
          }
          let msg: RpcResponse;
          try {
            msg = JSON.parse(text) as RpcResponse;
          } catch {
            reject(
              new RpcCallError(
                -32603,
                `the daemon answered HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`,
              ),
            );
            return;
          }
          if (msg.error) reject(new RpcCallError(msg.error.code, msg.error.message, msg.error.data));
          else resolve(msg.result as R);
        },
      },
      timeoutMs,
    );
  });
}

export interface StreamHandle<R> {
  done: Promise<R>;
  /** Drops the connection; the daemon treats a hang-up as a cancel. */
  abort(): void;
}

const NEWLINE = 0x0a;

/** Where the raw output bytes of a framed stream go, piece by piece as they arrive. */
export type BytesHandler = (stream: 'stdout' | 'stderr', data: Buffer) => void;

/**
 * Sends a streaming request. `onNotification` gets every notification line in
 * order; `done` resolves with the final result or rejects with RpcCallError,
 * ConnectError (never connected) or StreamBrokenError (connection lost midway).
 * With `onBytes` the daemon is asked for the framed stream (FRAMED_CONTENT_TYPE):
 * output arrives as raw bytes handed to `onBytes` without decoding or parsing;
 * a daemon that answers plain NDJSON still works (its output comes as notifications).
 * `stdoutPipe` (framed only): STDOUT_PIPE_HEADER's value, offering the daemon this process's stdout pipe.
 */
export function rpcStream<R>(
  target: DaemonTarget,
  method: string,
  params: unknown,
  onNotification: (method: string, params: unknown) => void,
  onBytes?: BytesHandler,
  stdoutPipe?: string,
): StreamHandle<R> {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  let conn: PostHandle | undefined;
  let dropped: () => void = () => undefined;
  const done = new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    dropped = () => settle(() => reject(new StreamBrokenError('the connection to the kubecfg daemon was dropped')));
    const handleLine = (line: string): void => {
      if (settled || line.trim() === '') return;
      let msg: RpcResponse;
      try {
        msg = JSON.parse(line) as RpcResponse;
      } catch {
        settle(() =>
          reject(new RpcCallError(-32603, `the daemon sent a line that is not JSON: ${line.slice(0, 200)}`)),
        );
        return;
      }
      if (typeof msg.method === 'string' && msg.id === undefined) {
        if (msg.method === Notifications.bytes && onBytes) {
          const p = msg.params as BytesNotificationParams;
          if (!Number.isSafeInteger(p?.length) || p.length < 0 || (p.stream !== 'stdout' && p.stream !== 'stderr')) {
            settle(() => reject(new RpcCallError(-32603, `the daemon sent a bad output frame: ${line.slice(0, 200)}`)));
            return;
          }
          raw = { stream: p.stream, remaining: p.length };
          return;
        }
        onNotification(msg.method, msg.params);
        return;
      }
      if (msg.error) settle(() => reject(new RpcCallError(msg.error!.code, msg.error!.message, msg.error!.data)));
      else settle(() => resolve(msg.result as R));
    };
    // Lines are cut at newline bytes, which never occur inside a UTF-8 sequence.
    let partial: Buffer[] = [];
    // Inside a `stream/bytes` frame: how many raw bytes are still to come, and for which stream.
    let raw: { stream: 'stdout' | 'stderr'; remaining: number } | null = null;
    let status = 0;
    conn = postOverSocket(
      target,
      RPC_PATH,
      body,
      {
        onHead: (code) => (status = code),
        onBody: (chunk) => {
          if (status === 401) {
            settle(() => reject(new RpcCallError(-32001, unauthorized(target))));
            return;
          }
          let from = 0;
          while (from < chunk.length && !settled) {
            if (raw !== null) {
              const take = Math.min(raw.remaining, chunk.length - from);
              const frame = raw;
              frame.remaining -= take;
              if (frame.remaining === 0) raw = null;
              if (take > 0) onBytes!(frame.stream, chunk.subarray(from, from + take));
              from += take;
              continue;
            }
            const nl = chunk.indexOf(NEWLINE, from);
            if (nl < 0) break;
            const piece = chunk.subarray(from, nl);
            const line = partial.length ? Buffer.concat([...partial, piece]) : piece;
            partial = [];
            from = nl + 1;
            handleLine(line.toString('utf8'));
          }
          if (from < chunk.length && raw === null && !settled) partial.push(chunk.subarray(from));
        },
        onEnd: () => {
          if (status === 401) settle(() => reject(new RpcCallError(-32001, unauthorized(target))));
          if (partial.length) handleLine(Buffer.concat(partial).toString('utf8'));
          partial = [];
          settle(() =>
            reject(
              new StreamBrokenError(
                'the kubecfg daemon closed the connection before the command finished (it may have crashed; see `kubecfg daemon logs`)',
              ),
            ),
          );
        },
        onError: (err, connected) =>
          settle(() =>
            reject(
              connected
                ? new StreamBrokenError(`lost the connection to the kubecfg daemon: ${err.message}`)
                : toConnectError(err, target),
            ),
          ),
      },
      null,
      onBytes
        ? { accept: FRAMED_CONTENT_TYPE, ...(stdoutPipe === undefined ? {} : { [STDOUT_PIPE_HEADER]: stdoutPipe }) }
        : {},
    );
  });
  return {
    done,
    abort: () => {
      conn?.destroy();
      dropped();
    },
  };
}
