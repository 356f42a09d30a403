/**
 * The undici dispatcher for a cluster connection: direct, through the
 * kubeconfig cluster's `proxy-url`, or through the proxy the client's
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY name for the server (net/proxy.ts:
 * Go's rules, so localhost and loopback servers are never proxied by the
 * environment; a `proxy-url` applies to every address).
 * Invariant: the variables come from the CLIENT's environment, never the
 * daemon's.
 */
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import type { ConnectionOptions } from 'node:tls';
import { proxyFor, proxySettings, ProxyConfigError } from '../net/proxy.js';
import { KubeError } from './errors.js';

type Env = Readonly<Record<string, string | undefined>>;

export function clusterDispatcher(
  server: URL,
  tls: ConnectionOptions,
  env: Env,
  proxyUrl: string | undefined,
): Dispatcher {
  const common = { keepAliveTimeout: 30_000 };
  if (proxyUrl !== undefined) return new ProxyAgent({ ...common, uri: proxyUrl, requestTls: tls });
  let proxy: URL | undefined;
  try {
    proxy = proxyFor(server, proxySettings(env));
  } catch (err) {
    if (err instanceof ProxyConfigError) throw new KubeError('KUBE_CONFIG', err.message);
    throw err;
  }
  if (proxy === undefined) return new Agent({ ...common, connect: tls });
  return new ProxyAgent({ ...common, uri: proxy.href, requestTls: tls });
}
