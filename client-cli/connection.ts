/**
 * JSON-RPC over HTTP on the daemon's unix socket, with node:http only (the CLI
 * bundle must stay small). `rpcCall` does one request/response; `rpcStream`
 * reads an NDJSON body of notifications ending in the JSON-RPC response.
 * Connection failures surface as ConnectError so the launcher can tell "no
 * daemon" (ENOENT/ECONNREFUSED) from "daemon answered with an error" (RpcCallError).
 */
import { request, type ClientRequest } from 'node:http';
import { RPC_PATH, type RpcError } from '../protocol/index.js';

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

function post(socketPath: string, body: string, timeoutMs: number | null): ClientRequest {
  const req = request({
    socketPath,
    path: RPC_PATH,
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  if (timeoutMs !== null)
    req.setTimeout(timeoutMs, () =>
      req.destroy(Object.assign(new Error(`no answer from the daemon within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
  req.end(body);
  return req;
}

function toConnectError(err: NodeJS.ErrnoException, socketPath: string): ConnectError {
  return new ConnectError(err.code ?? 'EUNKNOWN', `cannot reach the kubecfg daemon at ${socketPath}: ${err.message}`);
}

export function rpcCall<R>(socketPath: string, method: string, params: unknown, timeoutMs = 5000): Promise<R> {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  return new Promise<R>((resolve, reject) => {
    const req = post(socketPath, body, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => reject(toConnectError(err, socketPath)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err: NodeJS.ErrnoException) => reject(toConnectError(err, socketPath)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let msg: RpcResponse;
        try {
          msg = JSON.parse(text) as RpcResponse;
        } catch {
          reject(
            new RpcCallError(
              -32603,
              `the daemon answered HTTP ${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)}`,
            ),
          );
          return;
        }
        if (msg.error) reject(new RpcCallError(msg.error.code, msg.error.message, msg.error.data));
        else resolve(msg.result as R);
      });
    });
  });
}

export interface StreamHandle<R> {
  done: Promise<R>;
  /** Drops the connection; the daemon treats a hang-up as a cancel. */
  abort(): void;
}

/**
 * Sends a streaming request. `onNotification` gets every notification line in
 * order; `done` resolves with the final result or rejects with RpcCallError,
 * ConnectError (never connected) or StreamBrokenError (connection lost midway).
 */
export function rpcStream<R>(
  socketPath: string,
  method: string,
  params: unknown,
  onNotification: (method: string, params: unknown) => void,
): StreamHandle<R> {
  const id = nextId++;
  const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
  let req: ClientRequest | undefined;
  const done = new Promise<R>((resolve, reject) => {
    let connected = false;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    req = post(socketPath, body, null);
    req.on('socket', (sock) => sock.on('connect', () => (connected = true)));
    req.on('error', (err: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          connected
            ? new StreamBrokenError(`lost the connection to the kubecfg daemon: ${err.message}`)
            : toConnectError(err, socketPath),
        ),
      ),
    );
    req.on('response', (res) => {
      let buffered = '';
      const handleLine = (line: string): void => {
        if (line.trim() === '') return;
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
          onNotification(msg.method, msg.params);
          return;
        }
        if (msg.error) settle(() => reject(new RpcCallError(msg.error!.code, msg.error!.message, msg.error!.data)));
        else settle(() => resolve(msg.result as R));
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          handleLine(line);
        }
      });
      res.on('error', (err) =>
        settle(() => reject(new StreamBrokenError(`lost the connection to the kubecfg daemon: ${err.message}`))),
      );
      res.on('close', () => {
        if (buffered !== '') handleLine(buffered);
        buffered = '';
        settle(() =>
          reject(
            new StreamBrokenError(
              'the kubecfg daemon closed the connection before the command finished (it may have crashed; see `kubecfg daemon logs`)',
            ),
          ),
        );
      });
    });
  });
  return { done, abort: () => req?.destroy() };
}
