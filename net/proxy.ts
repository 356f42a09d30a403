/**
 * Which HTTP proxy a request goes through, decided once for every client of
 * the project (the cluster in kube/, registries in oci/, http(s) imports in
 * server/remote-inputs/), as Go's http.ProxyFromEnvironment decides it for
 * kubecfg (golang.org/x/net/http/httpproxy):
 *  - HTTPS_PROXY for https URLs, HTTP_PROXY for http URLs, no fallback from
 *    one to the other; upper case wins over lower case, as Go reads them;
 *  - a proxy value without a scheme is `http://VALUE`;
 *  - `localhost` and loopback IP addresses never go through a proxy;
 *  - NO_PROXY: `*` (no proxy at all), IP addresses and CIDR ranges (for IP
 *    hosts), and names, where `foo.com` matches foo.com and its subdomains,
 *    `.foo.com` and `*.foo.com` only subdomains; each optionally `:port`.
 * Invariants: the variables are the CLIENT's (the daemon passes the request's
 * env), never this process's; only http and https proxies are spoken
 * (undici's ProxyAgent, CONNECT tunnels), so a socks5 proxy is an error that
 * names the variable, never a silent direct connection.
 */
import { BlockList, isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Dispatcher, ProxyAgent } from 'undici';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

function pick(env: Env, upper: string): string {
  const v = env[upper];
  return v !== undefined && v !== '' ? v : (env[upper.toLowerCase()] ?? '');
}

export function proxySettings(env: Env): ProxySettings {
  return { httpProxy: pick(env, 'HTTP_PROXY'), httpsProxy: pick(env, 'HTTPS_PROXY'), noProxy: pick(env, 'NO_PROXY') };
}

/** Settings that name any proxy at all, or undefined (so callers can skip the router). */
export function activeProxySettings(env: Env): ProxySettings | undefined {
  const s = proxySettings(env);
  return s.httpProxy !== '' || s.httpsProxy !== '' ? s : undefined;
}

export class ProxyConfigError extends Error {}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

/** Go's parseProxy: a value without a scheme is an http proxy. */
function parseProxy(value: string, variable: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
    if (url.host === '') url = undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) {
    try {
      url = new URL(`http://${value}`);
    } catch {
      throw new ProxyConfigError(`${variable}: invalid proxy address`);
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxyConfigError(
      `${variable}: proxy scheme ${url.protocol.replace(/:$/, '')} is not supported (use http:// or https://)`,
    );
  return url;
}

function defaultPort(url: URL): string {
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}

/** True when NO_PROXY says `url` goes direct. */
function noProxyMatches(noProxy: string, url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = defaultPort(url);
  const ipFamily = isIP(host);
  for (const raw of noProxy.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr !== null && isIP(cidr[1]!) !== 0) {
      if (ipFamily === 0) continue;
      const list = new BlockList();
      const family = isIP(cidr[1]!) === 4 ? 'ipv4' : 'ipv6';
      try {
        list.addSubnet(cidr[1]!, Number(cidr[2]), family);
      } catch {
        continue;
      }
      if (list.check(host, ipFamily === 4 ? 'ipv4' : 'ipv6')) return true;
      continue;
    }
    let entryHost = entry;
    let entryPort = '';
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const withPort = /^([^:]+):(\d+)$/.exec(entry);
    if (bracketed !== null) {
      entryHost = bracketed[1]!;
      entryPort = bracketed[2] ?? '';
    } else if (withPort !== null) {
      entryHost = withPort[1]!;
      entryPort = withPort[2]!;
    }
    if (entryPort !== '' && entryPort !== port) continue;
    if (isIP(entryHost) !== 0) {
      if (ipFamily !== 0 && entryHost === host) return true;
      continue;
    }
    if (entryHost.startsWith('*.')) entryHost = entryHost.slice(1);
    if (entryHost.startsWith('.')) {
      if (host.endsWith(entryHost)) return true;
    } else if (host === entryHost || host.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

/** The proxy `url` goes through under `settings`, or undefined for a direct connection. */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const https = url.protocol === 'https:';
  const value = https ? settings.httpsProxy : url.protocol === 'http:' ? settings.httpProxy : '';
  if (value === '') return undefined;
  // Go: "localhost" and loopback IPs only (a *.localhost name is proxied like any name).
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || (isIP(host) !== 0 && isLoopbackHost(host))) return undefined;
  if (noProxyMatches(settings.noProxy, url)) return undefined;
  return parseProxy(value, https ? 'HTTPS_PROXY' : 'HTTP_PROXY');
}

/**
 * A dispatcher that sends each request direct or through the proxy proxyFor() names for its
 * origin: one undici ProxyAgent per proxy, `direct` for the rest. The proxy connection itself is
 * made by the ProxyAgent's own connector (not `direct`'s), so a connection guard on `direct`
 * checks targets, never the proxy the user configured.
 */
export interface ProxyRouter extends Dispatcher {
  /** The proxy a request to `url` would use (for callers that check targets before sending). */
  proxyFor(url: URL): URL | undefined;
}

type ProxyRouterClass = new (settings: ProxySettings, direct: Dispatcher, tls?: ConnectionOptions) => ProxyRouter;
let routerClass: ProxyRouterClass | undefined;

/**
 * A ProxyRouter. The class is defined on first use because `extends Dispatcher` reads undici,
 * which the engine bundle loads lazily (scripts/build.mjs): defining it at import time would load
 * undici in every one-shot run, proxy or not.
 */
export function createProxyRouter(
  settings: ProxySettings,
  direct: Dispatcher,
  tls: ConnectionOptions = {},
): ProxyRouter {
  routerClass ??= defineProxyRouter();
  return new routerClass(settings, direct, tls);
}

function defineProxyRouter(): ProxyRouterClass {
  return class ProxyRouterImpl extends Dispatcher implements ProxyRouter {
    private readonly proxies = new Map<string, ProxyAgent>();

    constructor(
      private readonly settings: ProxySettings,
      private readonly direct: Dispatcher,
      private readonly tls: ConnectionOptions = {},
    ) {
      super();
    }

    /** The proxy a request to `url` would use (for callers that check targets before sending). */
    proxyFor(url: URL): URL | undefined {
      return proxyFor(url, this.settings);
    }

    override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const origin = new URL(String(opts.origin));
      const proxy = proxyFor(origin, this.settings);
      if (proxy === undefined) return this.direct.dispatch(opts, handler);
      let agent = this.proxies.get(proxy.href);
      if (agent === undefined) {
        agent = new ProxyAgent({ uri: proxy.href, requestTls: this.tls });
        this.proxies.set(proxy.href, agent);
      }
      return agent.dispatch(opts, handler);
    }

    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      const done = Promise.all([this.direct.close(), ...[...this.proxies.values()].map((a) => a.close())]).then(
        () => undefined,
      );
      if (callback === undefined) return done;
      void done.then(callback, callback);
    }

    override destroy(): Promise<void>;
    override destroy(err: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(err: Error | null, callback: () => void): void;
    override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
      const err = typeof a === 'function' ? null : (a ?? null);
      const callback = typeof a === 'function' ? a : b;
      const done = Promise.all([
        this.direct.destroy(err),
        ...[...this.proxies.values()].map((p) => p.destroy(err)),
      ]).then(() => undefined);
      if (callback === undefined) return done;
      void done.then(callback, callback);
    }
  };
}
