/**
 * JSON-RPC calls to the remote render service over HTTPS (node:https only,
 * the CLI bundle stays small). The bearer token goes in the Authorization
 * header and nowhere else; errors never quote it. A connection that fails
 * or breaks (refused, reset, hang-up, a 502/503 from a proxy or a draining
 * server) is a RemoteUnavailableError, which the caller may retry once.
 * Aborting the signal closes the connection at once (RemoteCancelledError):
 * the service takes the closed connection as a cancel and stops the render.
 */
import { createRequire } from 'node:module';
import { RPC_PATH, type RpcError } from '../../protocol/index.js';

export interface RemoteEndpoint {
  /** https://host:port (a path prefix is allowed: a reverse proxy may mount the service under one). */
  url: URL;
  token: string;
  /** PEM of extra CAs to trust (--remote-ca); undefined = the system's. */
  ca?: string;
}

export class RemoteCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RemoteCallError';
  }
}

export class RemoteUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteUnavailableError';
  }
}

export class RemoteCancelledError extends Error {
  constructor() {
    super('interrupted');
    this.name = 'RemoteCancelledError';
  }
}

let nextId = 1;

// Loaded on the first remote call only: node:https (and TLS) cost ~6 ms of CPU on every local command.
// require, not import(): the startup snapshot's copy of the CLI cannot import() (docs/performance.md).
let httpsModule: typeof import('node:https') | undefined;

export async function remoteCall<R>(
  endpoint: RemoteEndpoint,
  method: string,
  params: unknown,
  timeoutMs = 600_000,
  signal?: AbortSignal,
): Promise<R> {
  if (signal?.aborted) throw new RemoteCancelledError();
  const { request } = (httpsModule ??= createRequire(import.meta.url)('node:https') as typeof import('node:https'));
  const body = JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params });
  const where = endpoint.url.origin;
  const path = endpoint.url.pathname.replace(/\/$/, '') + RPC_PATH;
  return new Promise<R>((resolve, reject) => {
    const req = request({
      host: endpoint.url.hostname,
      port: endpoint.url.port || 443,
      path,
      method: 'POST',
      agent: false,
      ...(endpoint.ca !== undefined ? { ca: endpoint.ca } : {}),
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        authorization: `Bearer ${endpoint.token}`,
      },
    });
    if (signal) {
      const onAbort = (): void => {
        reject(new RemoteCancelledError());
        req.destroy();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => signal.removeEventListener('abort', onAbort));
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)}s`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const tls = err.code?.startsWith('ERR_TLS') || /certificate|self.signed|SSL/i.test(err.message);
      if (tls)
        reject(
          new RemoteCallError(
            -1,
            `TLS failure talking to ${where}: ${err.message} (for a private CA use --remote-ca FILE)`,
          ),
        );
      else reject(new RemoteUnavailableError(`cannot reach the render service at ${where}: ${err.message}`));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) =>
        reject(new RemoteUnavailableError(`the render service at ${where} hung up: ${err.message}`)),
      );
      res.on('aborted', () => reject(new RemoteUnavailableError(`the render service at ${where} hung up mid-answer`)));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status === 401)
          return reject(
            new RemoteCallError(
              -31950,
              `the render service at ${where} refused the token (401): check KUBECFG_REMOTE_TOKEN or --remote-token-file`,
            ),
          );
        if (status === 403)
          return reject(new RemoteCallError(-31950, `the render service at ${where} refused the request (403)`));
        if (status === 502 || status === 503 || status === 504)
          return reject(new RemoteUnavailableError(`the render service at ${where} is unavailable (HTTP ${status})`));
        let msg: { result?: R; error?: RpcError };
        try {
          msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { result?: R; error?: RpcError };
        } catch {
          return reject(
            new RemoteUnavailableError(`the render service at ${where} sent an unreadable answer (HTTP ${status})`),
          );
        }
        if (msg.error) return reject(new RemoteCallError(msg.error.code, msg.error.message, msg.error.data));
        resolve(msg.result as R);
      });
    });
    req.end(body);
  });
}
