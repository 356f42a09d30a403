/**
 * The undici dispatcher for a cluster connection: direct, through the
 * kubeconfig cluster's `proxy-url`, or through the client's HTTPS_PROXY /
 * HTTP_PROXY / NO_PROXY (lowercase first, as curl and undici read them).
 * Invariants: the variables come from the CLIENT's environment, never the
 * daemon's (undici's EnvHttpProxyAgent falls back to process.env for any
 * option left undefined, so every option is passed); as Go's
 * http.ProxyFromEnvironment, localhost and loopback addresses never go
 * through an environment proxy (a `proxy-url` applies to every address).
 */
import { isIP } from 'node:net';
import { Agent, EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';
import type { ConnectionOptions } from 'node:tls';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

function pick(env: Env, name: string): string {
  return env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '';
}

export function proxySettings(env: Env): ProxySettings {
  return { httpProxy: pick(env, 'http_proxy'), httpsProxy: pick(env, 'https_proxy'), noProxy: pick(env, 'no_proxy') };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

/** The environment variables that carry proxy settings, for the list the CLI sends to the daemon. */
export const PROXY_ENV_NAMES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

export function clusterDispatcher(
  server: URL,
  tls: ConnectionOptions,
  env: Env,
  proxyUrl: string | undefined,
): Dispatcher {
  const common = { keepAliveTimeout: 30_000 };
  if (proxyUrl !== undefined) return new ProxyAgent({ ...common, uri: proxyUrl, requestTls: tls });
  const settings = proxySettings(env);
  const wanted = server.protocol === 'https:' ? settings.httpsProxy || settings.httpProxy : settings.httpProxy;
  if (wanted === '' || isLoopbackHost(server.hostname)) return new Agent({ ...common, connect: tls });
  return new EnvHttpProxyAgent({
    ...common,
    connect: tls,
    requestTls: tls,
    httpProxy: settings.httpProxy,
    httpsProxy: settings.httpsProxy,
    noProxy: settings.noProxy,
  });
}
