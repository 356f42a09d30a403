/**
 * GET of an http(s) import over undici, for the HttpCache (cache/http-cache.ts).
 *
 * - Hazard 24: every hop's host is checked after DNS resolution, inside the
 *   connection's own lookup, so the address checked is the address used; an
 *   IP literal host (no lookup happens) is checked before connecting.
 *   Loopback, private, link-local and metadata addresses are refused unless
 *   the host or the address is on the allow-list (ssrf.ts). Under the strict
 *   rule (onlyAllowedHosts: the remote render service) every host that is not
 *   on the allow-list, by name or by resolved address, is refused.
 * - Redirects are followed here, at most MAX_REDIRECTS, each hop checked
 *   again; https -> http downgrades are refused; credentials from a URL's
 *   userinfo go only to that URL's origin, never to a redirect target.
 * - Every response body has a byte cap and the whole exchange a deadline.
 * - Error texts name the URL without its userinfo and never quote a body.
 * - Proxies (the client's HTTP(S)_PROXY / NO_PROXY, net/proxy.ts): a hop that goes through a
 *   proxy is checked before it is sent, the target and not the proxy: an IP literal as above,
 *   a name on the addresses it resolves to here (a name that does not resolve here is left to
 *   the proxy, which is where a proxied network resolves names). The proxy itself is the
 *   user's configuration and is not subject to the rule (it is often on a private address).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { createProxyRouter, ProxyConfigError, type ProxyRouter, type ProxySettings } from '../../net/proxy.js';
import type { HttpCacheTransport, HttpFetchResponse } from '../../cache/http-cache.js';
import { bareHost, blockedAddressReason, hostAllowed } from './ssrf.js';

export const MAX_REDIRECTS = 5;

export interface HttpFetchOptions {
  allowHosts: readonly string[];
  /** Strict allow-list (remote render service): only allowHosts may be reached at all. */
  onlyAllowedHosts?: boolean;
  /** Cap on one response body (default 16 MiB). */
  maxBytes?: number;
  /** Deadline for one request, headers and body (default 30 s). */
  timeoutMs?: number;
  /** Observes each request sent (tests and the bench count them). */
  onRequest?: (url: string) => void;
  /** The client's proxy variables (never under onlyAllowedHosts: the service uses no client proxy). */
  proxy?: ProxySettings;
}

/** A URL for messages: no userinfo, no fragment. */
export function displayUrl(url: URL | string): string {
  try {
    const u = new URL(url.toString());
    u.username = '';
    u.password = '';
    u.hash = '';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}

class RefusedAddress extends Error {}

function refusal(host: string, address: string, why: string): string {
  const shown = address === host ? address : `${host} (${address})`;
  return `refused: ${shown} is ${why}; imports may reach it only if allowed with --allow-import-host ${host}`;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Why `host`, resolved to `address`, may not be reached, or undefined. Allow-listed (by name or
 * address) always passes; otherwise the strict rule refuses everything, the default rule only
 * blocked addresses.
 */
export function connectRefusal(
  allowHosts: readonly string[],
  onlyAllowed: boolean,
  host: string,
  address: string,
): string | undefined {
  if (hostAllowed(allowHosts, host, address)) return undefined;
  if (onlyAllowed) {
    const shown = address === host ? address : `${host} (${address})`;
    return `refused: ${shown} is not one of the import hosts this remote render tenant may reach (importHosts)`;
  }
  const why = blockedAddressReason(address);
  return why === undefined ? undefined : refusal(host, address, why);
}

/** A dns.lookup that refuses blocked addresses unless allowed (used as the connector's lookup). */
function checkedLookup(allowHosts: readonly string[], onlyAllowed: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const a of addresses) {
        const why = connectRefusal(allowHosts, onlyAllowed, hostname, a.address);
        if (why !== undefined) return callback(new RefusedAddress(why), []);
      }
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici Agent whose every connection is checked: an IP-literal host before connecting, a
 * name on the addresses DNS returned, inside the connection's own lookup. Redirects open new
 * connections, so every hop passes here. Used for http(s) imports and, under the strict rule,
 * for registries.
 */
export function guardedAgent(allowHosts: readonly string[], onlyAllowed: boolean): Agent {
  const connect = buildConnector({ lookup: checkedLookup(allowHosts, onlyAllowed) });
  return new Agent({
    connect: (options, callback) => {
      const host = bareHost(options.hostname);
      const why = isIP(host) !== 0 ? connectRefusal(allowHosts, onlyAllowed, host, host) : undefined;
      if (why !== undefined) return callback(new RefusedAddress(why), null);
      connect(options, callback);
    },
  });
}

/** Under the strict rule, why `host` may not be reached at all (DNS consulted for names not listed), or undefined. */
export async function strictHostRefusal(allowHosts: readonly string[], host: string): Promise<string | undefined> {
  const bare = bareHost(host);
  if (hostAllowed(allowHosts, bare)) return undefined;
  if (isIP(bare) !== 0) return connectRefusal(allowHosts, true, bare, bare);
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(bare, { all: true }, (err, found) => resolve(err ? [] : found)),
  );
  if (addresses.length === 0) return connectRefusal(allowHosts, true, bare, bare);
  for (const a of addresses) {
    const why = connectRefusal(allowHosts, true, bare, a.address);
    if (why !== undefined) return why;
  }
  return undefined;
}

function causeChain(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err, i = 0; e !== undefined && e !== null && i < 6; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** Text for a network failure: the refusal if it was one, else a short cause without secrets. */
function describeFailure(url: URL, err: unknown, timeoutMs: number, timedOut: boolean): string {
  const chain = causeChain(err);
  const refused = chain.find((e): e is RefusedAddress => e instanceof RefusedAddress);
  if (refused) return refused.message;
  const badProxy = chain.find((e): e is ProxyConfigError => e instanceof ProxyConfigError);
  if (badProxy) return `GET ${displayUrl(url)}: ${badProxy.message}`;
  if (timedOut) return `GET ${displayUrl(url)}: no complete answer within ${timeoutMs} ms`;
  const code = chain.map((e) => (e as { code?: unknown }).code).find((c) => typeof c === 'string');
  return `GET ${displayUrl(url)}: ${typeof code === 'string' ? code : 'request failed'}`;
}

async function readCapped(body: AsyncIterable<Uint8Array>, maxBytes: number, url: URL): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new Error(`GET ${displayUrl(url)}: response larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Whether `url` goes through a proxy (an unusable proxy setting is reported by the request itself). */
function proxied(router: ProxyRouter, url: URL): boolean {
  try {
    return router.proxyFor(url) !== undefined;
  } catch {
    return false;
  }
}

/** The default rule on the addresses `host` resolves to here, for a hop a proxy will connect. */
async function resolvedRefusal(allowHosts: readonly string[], host: string): Promise<string | undefined> {
  const addresses = await new Promise<LookupAddress[]>((resolve) =>
    dnsLookup(host, { all: true }, (err, found) => resolve(err ? [] : found)),
  );
  for (const a of addresses) {
    const why = connectRefusal(allowHosts, false, host, a.address);
    if (why !== undefined) return why;
  }
  return undefined;
}

/** The transport the daemon gives the HttpCache for one request's policy. Close the agent after use. */
export function createHttpFetcher(opts: HttpFetchOptions): { transport: HttpCacheTransport; close(): Promise<void> } {
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const onlyAllowed = opts.onlyAllowedHosts === true;
  const guarded = guardedAgent(opts.allowHosts, onlyAllowed);
  const router = opts.proxy !== undefined && !onlyAllowed ? createProxyRouter(opts.proxy, guarded) : undefined;
  const agent: Dispatcher = router ?? guarded;

  const transport: HttpCacheTransport = async (urlText, extraHeaders) => {
    let url = new URL(urlText);
    const origin = url.origin;
    const credentials =
      url.username !== '' || url.password !== ''
        ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
        : undefined;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new Error(`GET ${displayUrl(url)}: only http and https URLs can be fetched`);
      const host = bareHost(url.hostname);
      if (isIP(host) !== 0) {
        const why = connectRefusal(opts.allowHosts, onlyAllowed, host, host);
        if (why !== undefined) throw new Error(why);
      } else if (router !== undefined && proxied(router, url)) {
        const why = await resolvedRefusal(opts.allowHosts, host);
        if (why !== undefined) throw new Error(why);
      }
      const target = new URL(url);
      target.username = '';
      target.password = '';
      target.hash = '';
      const headers: Record<string, string> = { 'user-agent': 'kubecfg-ts', ...extraHeaders };
      if (credentials !== undefined && url.origin === origin) headers['authorization'] = credentials;
      const ctl = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        ctl.abort();
      }, timeoutMs);
      let res: HttpFetchResponse & { location?: string };
      try {
        opts.onRequest?.(displayUrl(target));
        const r = await request(target, { method: 'GET', headers, dispatcher: agent, signal: ctl.signal });
        const hdrs: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers))
          if (v !== undefined) hdrs[k] = Array.isArray(v) ? v.join(', ') : v;
        if (r.statusCode >= 300 && r.statusCode < 400 && r.statusCode !== 304) {
          await r.body.dump();
          res = { status: r.statusCode, headers: hdrs, body: new Uint8Array(), location: hdrs['location'] ?? '' };
        } else if (r.statusCode !== 200) {
          await r.body.dump();
          res = { status: r.statusCode, headers: hdrs, body: new Uint8Array() };
        } else {
          res = { status: 200, headers: hdrs, body: await readCapped(r.body, maxBytes, url) };
        }
      } catch (err) {
        if (err instanceof Error && /response larger than/.test(err.message)) throw err;
        throw new Error(describeFailure(url, err, timeoutMs, timedOut));
      } finally {
        clearTimeout(timer);
      }
      if (res.location === undefined) return res;
      if (hop >= MAX_REDIRECTS) throw new Error(`GET ${displayUrl(urlText)}: more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(res.location, url);
      } catch {
        throw new Error(`GET ${displayUrl(url)}: redirect to an invalid location`);
      }
      if (url.protocol === 'https:' && next.protocol === 'http:')
        throw new Error(`GET ${displayUrl(url)}: redirect from https to plain http refused`);
      url = next;
    }
  };
  return { transport, close: () => agent.close() };
}
