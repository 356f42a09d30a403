// HttpTransport: the one place oci/ talks HTTP (undici). It adds what every registry call needs:
// a byte cap and an overall deadline on every response body (hazard 25: a 2 GB index is refused at
// the cap, a registry dripping one byte a second hits the deadline), retries with exponential
// backoff on network errors and 5xx/429 for requests marked retryable, and manual redirects that
// drop the Authorization header whenever the origin changes (and refuse https -> http downgrades).
// Invariants: no header value and no body is ever put in an error message; responses are always
// fully consumed or destroyed, so sockets are not leaked.
import { rootCertificates } from 'node:tls';
import { Agent, request, type Dispatcher } from 'undici';
import { activeProxySettings, ProxyRouter } from '../net/proxy.js';
import { OciError, describeCause } from './errors.js';

export interface RetryPolicy {
  /** Total tries, including the first (1 = no retry). */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface HttpTransportOptions {
  /** Extra trusted CA certificates (PEM) for TLS registries with a private CA, added to Node's roots. */
  ca?: string | Uint8Array;
  /** Use this undici dispatcher instead of creating one (tests, proxies). */
  dispatcher?: Dispatcher;
  /**
   * The environment whose HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or lower case) apply, the
   * client's, never the daemon's; chosen per request by net/proxy.ts (Go's rules: loopback
   * registries are never proxied).
   */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
  retry?: Partial<RetryPolicy>;
  /** Injected so tests need not wait for backoff delays. */
  sleep?: (ms: number) => Promise<void>;
  userAgent?: string;
  /** Observes every HTTP request sent (method and URL without query), e.g. for request counting. */
  onRequest?: (method: string, url: string) => void;
}

export interface HttpRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: URL;
  headers?: Record<string, string>;
  /** Sent only to the origin of `url`; dropped if a redirect leaves that origin. */
  authorization?: string;
  body?: Uint8Array;
  /** Byte cap on the response body; a longer body is an OCI_TOO_LARGE error. */
  maxBytes: number;
  /** Deadline for the whole exchange, headers and body. */
  timeoutMs: number;
  retryable: boolean;
  followRedirects: boolean;
  /** Names the object in error messages, e.g. "manifest localhost:5000/app:v1". */
  what: string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Final URL after redirects. */
  url: URL;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 250, maxDelayMs: 4000 };
const MAX_REDIRECTS = 5;

export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly userAgent: string;
  private readonly onRequest: ((method: string, url: string) => void) | undefined;

  constructor(opts: HttpTransportOptions = {}) {
    if (opts.dispatcher !== undefined) {
      this.dispatcher = opts.dispatcher;
      this.ownsDispatcher = false;
    } else {
      const ca =
        opts.ca === undefined
          ? undefined
          : typeof opts.ca === 'string'
            ? opts.ca
            : Buffer.from(opts.ca).toString('utf8');
      // Node's `ca` option replaces the built-in roots; keep them so public registries still work.
      const tls = ca === undefined ? {} : { ca: [...rootCertificates, ca] };
      const direct = new Agent({ connect: tls });
      const proxies = activeProxySettings(opts.proxyEnv ?? {});
      this.dispatcher = proxies === undefined ? direct : new ProxyRouter(proxies, direct, tls);
      this.ownsDispatcher = true;
    }
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.userAgent = opts.userAgent ?? 'kubecfg-ts';
    this.onRequest = opts.onRequest;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** Sends the request, retrying and following redirects as configured. Never throws a non-OciError. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const attempts = req.retryable ? Math.max(1, this.retry.attempts) : 1;
    let lastError: OciError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await this.sleep(this.backoff(attempt));
      try {
        const res = await this.sendFollowingRedirects(req);
        if ((res.status >= 500 || res.status === 429) && attempt + 1 < attempts) {
          lastError = new OciError('OCI_REGISTRY', `${req.what}: registry answered HTTP ${res.status}`, {
            status: res.status,
          });
          continue;
        }
        return res;
      } catch (e) {
        const err =
          e instanceof OciError ? e : new OciError('OCI_NETWORK', `${req.what}: ${describeCause(e)}`, { cause: e });
        if (err.code !== 'OCI_NETWORK') throw err;
        lastError = err;
      }
    }
    throw lastError ?? new OciError('OCI_NETWORK', `${req.what}: request failed`);
  }

  private backoff(attempt: number): number {
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    // Half fixed, half jitter, so retries from parallel requests spread out.
    return Math.round(exp / 2 + (Math.random() * exp) / 2);
  }

  private async sendFollowingRedirects(req: HttpRequest): Promise<HttpResponse> {
    let url = req.url;
    let authorization = req.authorization;
    let method = req.method;
    let body = req.body;
    const deadline = AbortSignal.timeout(req.timeoutMs);
    for (let hop = 0; ; hop++) {
      const res = await this.sendOnce({ ...req, method, url, body, authorization }, deadline);
      const location = res.headers['location'];
      const isRedirect = [301, 302, 303, 307, 308].includes(res.status);
      if (!isRedirect || !req.followRedirects || location === undefined) return res;
      if (hop >= MAX_REDIRECTS) throw new OciError('OCI_REGISTRY', `${req.what}: more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OciError('OCI_REGISTRY', `${req.what}: redirect to an invalid URL`);
      }
      if (next.protocol !== 'https:' && next.protocol !== 'http:') {
        throw new OciError('OCI_REGISTRY', `${req.what}: redirect to unsupported scheme ${next.protocol}`);
      }
      if (url.protocol === 'https:' && next.protocol === 'http:') {
        throw new OciError('OCI_REGISTRY', `${req.what}: refusing redirect from https to plain http (${next.host})`);
      }
      // Credentials belong to the origin they were issued for (hazard 25, Helm CVE-2021-32690).
      if (next.origin !== url.origin) authorization = undefined;
      if (res.status === 303) {
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  }

  private async sendOnce(req: HttpRequest, deadline: AbortSignal): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent, ...req.headers };
    if (req.authorization !== undefined) headers['authorization'] = req.authorization;
    this.onRequest?.(req.method, req.url.origin + req.url.pathname);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(req.url, {
        method: req.method,
        headers,
        body:
          req.body === undefined ? undefined : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength),
        dispatcher: this.dispatcher,
        signal: deadline,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
    } catch (e) {
      throw translateError(e, req, deadline);
    }
    const flatHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) flatHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    const body = await readCapped(res, req, deadline);
    return { status: res.statusCode, headers: flatHeaders, body, url: req.url };
  }
}

/** Error and redirect bodies are only read for a short error summary: this much, then dropped. */
const NON_SUCCESS_BODY_CAP = 64 * 1024;

async function readCapped(res: Dispatcher.ResponseData, req: HttpRequest, deadline: AbortSignal): Promise<Uint8Array> {
  const success = res.statusCode >= 200 && res.statusCode < 300;
  const cap = success ? req.maxBytes : NON_SUCCESS_BODY_CAP;
  const declared = res.headers['content-length'];
  if (
    success &&
    typeof declared === 'string' &&
    /^[0-9]+$/.test(declared) &&
    Number(declared) > cap &&
    req.method !== 'HEAD'
  ) {
    discard(res.body);
    throw tooLarge(req);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body) {
      const buf = chunk as Buffer;
      if (total + buf.byteLength > cap) {
        discard(res.body);
        if (success) throw tooLarge(req);
        chunks.push(buf.subarray(0, cap - total));
        total = cap;
        break;
      }
      total += buf.byteLength;
      chunks.push(buf);
    }
  } catch (e) {
    if (e instanceof OciError) throw e;
    discard(res.body);
    throw translateError(e, req, deadline);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** Stops a response body; the abort error undici then emits must not become an uncaught exception. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function tooLarge(req: HttpRequest): OciError {
  return new OciError(
    'OCI_TOO_LARGE',
    `${req.what}: response body is larger than the ${req.maxBytes}-byte cap; refusing it`,
  );
}

function translateError(e: unknown, req: HttpRequest, deadline: AbortSignal): OciError {
  const code = (e as { code?: unknown } | null)?.code;
  const name = (e as { name?: unknown } | null)?.name;
  if (
    deadline.aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    name === 'TimeoutError'
  ) {
    return new OciError(
      'OCI_TIMEOUT',
      `${req.what}: no complete answer from ${req.url.host} within ${req.timeoutMs} ms`,
      { cause: e },
    );
  }
  const detail = typeof code === 'string' ? code : describeCause(e);
  return new OciError('OCI_NETWORK', `${req.what}: cannot reach ${req.url.host} (${detail})`, { cause: e });
}
