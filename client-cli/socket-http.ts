/**
 * One HTTP/1.1 POST over a unix socket (or the daemon's TCP listener) with node:net alone: the CLI's only
 * HTTP need. node:http costs the CLI about 14 ms of CPU per run (its modules,
 * the agent machinery) against about 1 ms for node:net, on a command whose
 * whole budget is ~1.5x `node -e 0`.
 *
 * Handles what the daemon's HTTP server (fastify on node:http) sends: a status
 * line, headers, then a body framed by `transfer-encoding: chunked`, by
 * `content-length`, or by the end of the connection (the request says
 * `connection: close`). Body bytes reach `onBody` as they arrive.
 * Invariants: `onEnd` or `onError` is called exactly once, and nothing after
 * it; `onError` says whether the socket had connected (a failed connect means
 * "no daemon", a later failure means "lost the daemon").
 */
import { connect, type Socket } from 'node:net';

/** A daemon's TCP listener (`--listen`): every request carries its bearer token. */
export interface TcpTarget {
  readonly host: string;
  readonly port: number;
  readonly token: string;
}

/** A unix socket path, or a TCP listener. */
export type DaemonTarget = string | TcpTarget;

export function describeTarget(target: DaemonTarget): string {
  return typeof target === 'string'
    ? target
    : `tcp://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

export interface PostHandlers {
  /** The status line and headers arrived (header names in lower case). */
  onHead?(status: number, headers: Map<string, string>): void;
  onBody(chunk: Buffer): void;
  /** The whole body arrived. */
  onEnd(): void;
  onError(err: NodeJS.ErrnoException, connected: boolean): void;
}

export interface PostHandle {
  /** Closes the connection; no handler is called afterwards. */
  destroy(): void;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** A daemon's headers are a few hundred bytes; anything this large is not our daemon. */
const MAX_HEAD_BYTES = 64 * 1024;
/**
 * Bytes per read. Node's own reads take 64 KiB at most; the daemon queues up to its socket's send
 * buffer (208 KiB by default on Linux) at a time, so a larger buffer takes a 6 MB output in ~30 reads
 * instead of ~95, each a wake-up, a callback and a write to stdout fewer (docs/performance.md).
 * A fresh buffer per read: a chunk may be kept (a partial line, a caller's list), never overwritten.
 */
const READ_BYTES = 256 * 1024;

function protocolError(message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'EPROTO' });
}

export function postOverSocket(
  target: DaemonTarget,
  path: string,
  body: string,
  handlers: PostHandlers,
  timeoutMs: number | null = null,
  /** More request headers (names in lower case): `accept` for the framed stream, the stdout pipe's identity. */
  headers: Readonly<Record<string, string>> = {},
): PostHandle {
  const payload = Buffer.from(body, 'utf8');
  const auth = typeof target === 'string' ? '' : `authorization: Bearer ${target.token}\r\n`;
  let extra = '';
  for (const [name, value] of Object.entries(headers)) extra += `${name}: ${value}\r\n`;
  const head =
    `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n${auth}${extra}` +
    `content-length: ${payload.length}\r\nconnection: close\r\n\r\n`;
  const onread = {
    buffer: () => Buffer.allocUnsafe(READ_BYTES),
    callback: (n: number, buf: Uint8Array): boolean => {
      onData(Buffer.from(buf.buffer, buf.byteOffset, n));
      return true;
    },
  };
  const socket: Socket =
    typeof target === 'string'
      ? connect({ path: target, onread })
      : connect({ port: target.port, host: target.host, onread });
  let connected = false;
  let finished = false;
  const decoder = new BodyDecoder(handlers.onBody);
  let headBuf: Buffer | null = Buffer.alloc(0);

  const finish = (err?: NodeJS.ErrnoException): void => {
    if (finished) return;
    finished = true;
    socket.destroy();
    if (err) handlers.onError(err, connected);
    else handlers.onEnd();
  };

  if (timeoutMs !== null)
    socket.setTimeout(timeoutMs, () =>
      finish(Object.assign(new Error(`no answer from the daemon within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
    );
  socket.on('connect', () => {
    connected = true;
    socket.write(head);
    socket.write(payload);
  });
  const onData = (data: Buffer): void => {
    if (finished) return;
    try {
      if (headBuf !== null) {
        headBuf = headBuf.length === 0 ? data : Buffer.concat([headBuf, data]);
        const end = headBuf.indexOf(HEAD_END);
        if (end < 0) {
          if (headBuf.length > MAX_HEAD_BYTES) throw protocolError('the daemon sent an HTTP head that never ends');
          return;
        }
        const { status, headers } = parseHead(headBuf.subarray(0, end).toString('latin1'));
        const rest = headBuf.subarray(end + HEAD_END.length);
        headBuf = null;
        decoder.start(headers);
        handlers.onHead?.(status, headers);
        if (!finished) decoder.push(rest);
      } else {
        decoder.push(data);
      }
      if (decoder.done) finish();
    } catch (err) {
      finish(err as NodeJS.ErrnoException);
    }
  };
  socket.on('end', () => {
    if (headBuf !== null) finish(protocolError('the daemon closed the connection without an answer'));
    else if (decoder.endsWithConnection) finish();
    else finish(protocolError('the daemon closed the connection in the middle of its answer'));
  });
  socket.on('error', (err: NodeJS.ErrnoException) => finish(err));
  socket.on('close', () => finish(protocolError('the connection to the daemon closed')));
  return {
    destroy(): void {
      finished = true;
      socket.destroy();
    },
  };
}

function parseHead(text: string): { status: number; headers: Map<string, string> } {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw protocolError(`the daemon did not answer in HTTP: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(m[1]), headers };
}

/** Turns the framed body back into its bytes: chunked, content-length, or up to the close. */
export class BodyDecoder {
  done = false;
  endsWithConnection = false;
  private mode: 'chunked' | 'length' | 'close' = 'close';
  private remaining = 0;
  /** Chunked: unparsed bytes of a size line or of a chunk's trailing CRLF. */
  private pending = Buffer.alloc(0);
  private state: 'size' | 'data' | 'crlf' = 'size';

  constructor(private readonly onBody: (chunk: Buffer) => void) {}

  start(headers: Map<string, string>): void {
    if ((headers.get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) this.mode = 'chunked';
    else if (headers.has('content-length')) {
      this.mode = 'length';
      this.remaining = Number(headers.get('content-length'));
      if (!Number.isSafeInteger(this.remaining) || this.remaining < 0)
        throw protocolError(`the daemon sent a bad content-length: ${headers.get('content-length')}`);
      this.done = this.remaining === 0;
    } else {
      this.mode = 'close';
      this.endsWithConnection = true;
    }
  }

  push(data: Buffer): void {
    if (this.done || data.length === 0) return;
    if (this.mode === 'close') {
      this.onBody(data);
      return;
    }
    if (this.mode === 'length') {
      const take = data.subarray(0, this.remaining);
      this.remaining -= take.length;
      if (take.length) this.onBody(take);
      this.done = this.remaining === 0;
      return;
    }
    this.pushChunked(data);
  }

  private pushChunked(data: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, data]) : data;
    this.pending = Buffer.alloc(0);
    while (buf.length > 0 && !this.done) {
      if (this.state === 'data') {
        const take = buf.subarray(0, this.remaining);
        this.remaining -= take.length;
        buf = buf.subarray(take.length);
        if (take.length) this.onBody(take);
        if (this.remaining === 0) this.state = 'crlf';
        continue;
      }
      const eol = buf.indexOf(CRLF);
      if (eol < 0) {
        if (buf.length > 1024) throw protocolError('the daemon sent a chunk header that never ends');
        this.pending = Buffer.from(buf);
        return;
      }
      const line = buf.subarray(0, eol).toString('latin1');
      buf = buf.subarray(eol + CRLF.length);
      if (this.state === 'crlf') {
        if (line !== '') throw protocolError('the daemon sent a chunk longer than announced');
        this.state = 'size';
        continue;
      }
      const size = parseInt(line.split(';')[0]!.trim(), 16);
      if (!Number.isSafeInteger(size) || size < 0 || !/^[0-9a-fA-F]+/.test(line))
        throw protocolError(`the daemon sent a bad chunk size: ${JSON.stringify(line.slice(0, 40))}`);
      if (size === 0) {
        // Trailers (none from our daemon) and the final CRLF follow; the body is complete.
        this.done = true;
        return;
      }
      this.remaining = size;
      this.state = 'data';
    }
  }
}
