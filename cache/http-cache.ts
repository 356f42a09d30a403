// HttpCache: the daemon-wide cache of fetched http(s) import bodies, following HTTP's caching
// rules for a private cache: `Cache-Control: no-store` is never stored; `max-age` (less `Age`),
// else `Expires` - `Date`, gives the freshness lifetime; `no-cache` and responses without either
// are stored but revalidated on every use; stale entries are revalidated with If-None-Match (ETag)
// and If-Modified-Since (Last-Modified), a 304 keeps the body and renews the lifetime.
// Invariants: only complete 200 bodies are stored (the transport enforces the per-response byte
// cap and the deadline), the total is bounded by ByteBoundedCache (least recently used go
// first); a failed fetch or revalidation stores nothing and serves nothing stale; concurrent
// gets of one key share one request. The transport (redirects, address checks) is injected, so
// this file does no I/O itself and knows nothing of undici.
import { ByteBoundedCache, type ByteCacheStats } from './byte-bounded-cache.js';
import { digestOf } from './digest.js';

export interface HttpFetchResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Sends one GET (following redirects itself) with the given extra request headers. */
export type HttpCacheTransport = (url: string, headers: Record<string, string>) => Promise<HttpFetchResponse>;

export interface HttpCacheOptions {
  /** Total bytes of bodies kept (default 128 MiB). */
  maxTotalBytes?: number;
  /** ms since the epoch; injected by tests. */
  now?: () => number;
}

export type HttpCacheAnswer =
  | { status: 'ok'; body: Uint8Array; digest: string; fromCache: boolean }
  | { status: 'not-found'; fromCache: false }
  | { status: 'error'; message: string; fromCache: false };

interface Stored {
  body: Uint8Array;
  digest: string;
  etag?: string;
  lastModified?: string;
  /** ms since the epoch until which the body is served without asking the server. */
  freshUntil: number;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Parses Cache-Control into directive -> value ('' for bare directives). */
export function parseCacheControl(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === '') continue;
    const value =
      eq < 0
        ? ''
        : part
            .slice(eq + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

/** Freshness lifetime in ms from the response headers (0: revalidate on every use). */
export function freshnessMs(headers: Record<string, string>): number {
  const cc = parseCacheControl(headers['cache-control']);
  if (cc.has('no-cache')) return 0;
  const maxAge = cc.get('max-age');
  if (maxAge !== undefined) {
    const seconds = /^\d+$/.test(maxAge) ? Number(maxAge) : 0;
    const age = /^\d+$/.test(headers['age'] ?? '') ? Number(headers['age']) : 0;
    return Math.max(0, seconds - age) * 1000;
  }
  const expires = headers['expires'];
  if (expires !== undefined) {
    const exp = Date.parse(expires);
    const date = headers['date'] !== undefined ? Date.parse(headers['date']) : NaN;
    if (Number.isNaN(exp) || Number.isNaN(date)) return 0;
    return Math.max(0, exp - date);
  }
  return 0;
}

export class HttpCache {
  private readonly store: ByteBoundedCache<Stored>;
  private readonly now: () => number;
  private readonly inflight = new Map<string, Promise<HttpCacheAnswer>>();
  /** Requests sent (initial fetches and revalidations): for stats and the bench. */
  requests = 0;
  revalidated = 0;

  constructor(opts: HttpCacheOptions = {}) {
    this.store = new ByteBoundedCache<Stored>({
      name: 'http-imports',
      maxBytes: opts.maxTotalBytes ?? 128 * 1024 * 1024,
    });
    this.now = opts.now ?? (() => Date.now());
  }

  /**
   * The body `url` names now. `key` separates entries fetched under different policies (the
   * daemon includes the import allow-list, so a body fetched where a host was allowed is never
   * served where it is not). Never throws: transport failures become { status: 'error' }.
   */
  get(key: string, url: string, transport: HttpCacheTransport): Promise<HttpCacheAnswer> {
    const stored = this.store.get(key);
    if (stored && stored.freshUntil > this.now())
      return Promise.resolve({ status: 'ok', body: stored.body, digest: stored.digest, fromCache: true });
    let p = this.inflight.get(key);
    if (!p) {
      p = this.fetch(key, url, stored, transport).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async fetch(
    key: string,
    url: string,
    stored: Stored | undefined,
    transport: HttpCacheTransport,
  ): Promise<HttpCacheAnswer> {
    const conditional: Record<string, string> = {};
    if (stored?.etag !== undefined) conditional['if-none-match'] = stored.etag;
    if (stored?.lastModified !== undefined) conditional['if-modified-since'] = stored.lastModified;
    let res: HttpFetchResponse;
    this.requests++;
    try {
      res = await transport(url, conditional);
    } catch (err) {
      return { status: 'error', message: err instanceof Error ? err.message : String(err), fromCache: false };
    }
    if (res.status === 304 && stored) {
      this.revalidated++;
      const renewed: Stored = { ...stored, freshUntil: this.now() + freshnessMs(res.headers) };
      if (res.headers['etag'] !== undefined) renewed.etag = res.headers['etag'];
      this.keep(key, renewed, res.headers);
      return { status: 'ok', body: stored.body, digest: stored.digest, fromCache: true };
    }
    if (res.status === 404 || res.status === 410) {
      this.store.delete(key);
      return { status: 'not-found', fromCache: false };
    }
    if (res.status !== 200) {
      this.store.delete(key);
      const text = STATUS_TEXT[res.status];
      return {
        status: 'error',
        message: `error reading content: ${res.status}${text ? ` ${text}` : ''}`,
        fromCache: false,
      };
    }
    const entry: Stored = {
      body: res.body,
      digest: digestOf(res.body),
      freshUntil: this.now() + freshnessMs(res.headers),
    };
    if (res.headers['etag'] !== undefined) entry.etag = res.headers['etag'];
    if (res.headers['last-modified'] !== undefined) entry.lastModified = res.headers['last-modified'];
    this.keep(key, entry, res.headers);
    return { status: 'ok', body: entry.body, digest: entry.digest, fromCache: false };
  }

  private keep(key: string, entry: Stored, headers: Record<string, string>): void {
    if (parseCacheControl(headers['cache-control']).has('no-store')) {
      this.store.delete(key);
      return;
    }
    this.store.set(key, entry, entry.body.byteLength + key.length + 256);
  }

  stats(): ByteCacheStats & { requests: number; revalidated: number } {
    return { ...this.store.stats(), requests: this.requests, revalidated: this.revalidated };
  }
}
