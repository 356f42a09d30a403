/**
 * The async half of remote inputs (daemon main thread, or the one-shot
 * process): runs a command in rounds. Each round renders with the snapshot
 * fetched so far; a render that met an input not fetched yet reports it as a
 * need, the needs are fetched (in parallel, with the static imports of each
 * fetched Jsonnet file prefetched, so a remote library tree costs about one
 * round per level of laziness, not one per file) and the command runs again,
 * at most MAX_ROUNDS times.
 *
 * Why rounds and not an async engine: Jsonnet evaluation is pure, so a re-run
 * with more inputs gives the same answer a blocking importer would have, and
 * the engine stays synchronous (workers poll cancellation; no Atomics waits).
 *
 * Daemon-wide state: the HttpCache (HTTP caching rules), one registry client,
 * BundleStore and tag table per (insecure registries, docker config) set, and
 * tag -> digest answers trusted for the request's --oci-tag-ttl. Digest-pinned
 * bundles come from the content-addressed store and are never fetched twice.
 *
 * stillValid re-checks the remote facts a cached result used (URL bodies via
 * the HttpCache: free within max-age, a conditional request after; tags after
 * their TTL), so a changed URL or a moved tag invalidates the cached render.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { HttpCache } from '../../cache/http-cache.js';
import { parseAst } from '../../lang/jsonnet/index.js';
import { children, type Node } from '../../lang/jsonnet/ast.js';
import { SourceFile } from '../../lang/common/source.js';
import { RegistryClient } from '../../oci/client.js';
import { DockerConfigCredentials } from '../../oci/docker-config.js';
import { apiHost, formatReference, parseReference, pinnedReference, type Reference } from '../../oci/reference.js';
import { BundleStore } from '../../oci/store.js';
import type { Agent } from 'undici';
import type { CommandOutcome } from '../commands/outcome.js';
import { fetchKubocdPackageContent } from './kubocd-fetch.js';
import { createHttpFetcher, guardedAgent, strictHostRefusal } from './http-fetch.js';
import {
  keyOf,
  type FetchPolicy,
  type RemoteDep,
  type RemoteEntry,
  type RemoteNeed,
  type RemoteSnapshot,
} from './remote-types.js';

export const MAX_ROUNDS = 16;
const MAX_PREFETCH = 64;

export interface RemoteInputsOptions {
  /** Where fetched bundles are kept by digest: $XDG_CACHE_HOME/kubecfg. */
  cacheDir?: string;
  /** ms since the epoch (tag TTLs); injected by tests. */
  now?: () => number;
  httpCache?: HttpCache;
  /** Observes each registry request (bench and tests count them). */
  onRegistryRequest?: (method: string, url: string) => void;
  onHttpRequest?: (url: string) => void;
}

interface Registry {
  client: RegistryClient;
  store: BundleStore;
  /** The connection guard of a strict-policy registry client (closed with it). */
  agent?: Agent;
}

function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'), 'kubecfg');
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Static import paths of a Jsonnet text (empty when it does not parse: the render will say why). */
function staticImports(text: string, name: string): string[] {
  let ast: Node;
  try {
    ast = parseAst(new SourceFile(name, text));
  } catch {
    return [];
  }
  const out: string[] = [];
  const stack: Node[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'Import') out.push(node.path);
    else stack.push(...children(node));
  }
  return out;
}

export class RemoteInputs {
  readonly httpCache: HttpCache;
  private readonly cacheDir: string;
  private readonly now: () => number;
  private readonly registries = new Map<string, Registry>();
  private readonly tags = new Map<string, { digest: string; at: number }>();
  private readonly opts: RemoteInputsOptions;

  constructor(opts: RemoteInputsOptions = {}) {
    this.opts = opts;
    this.httpCache = opts.httpCache ?? new HttpCache();
    this.cacheDir = opts.cacheDir ?? defaultCacheDir();
    this.now = opts.now ?? (() => Date.now());
  }

  /** Runs `runOnce` until it needs nothing more (or MAX_ROUNDS); returns the last outcome. */
  async run(
    runOnce: (snapshot: RemoteSnapshot) => Promise<CommandOutcome>,
    signal?: AbortSignal,
  ): Promise<CommandOutcome> {
    const snapshot: RemoteSnapshot = {};
    for (let round = 1; ; round++) {
      const outcome = await runOnce(snapshot);
      const report = outcome.remote;
      if (!report || report.needs.length === 0) return outcome;
      // A cancelled request's answer is already gone (command-runner's abortable): stop fetching for it.
      if (signal?.aborted) return { ...outcome, cacheable: false };
      if (round >= MAX_ROUNDS) {
        return {
          ...outcome,
          exitCode: 1,
          stdout: '',
          stderr: `${outcome.stderr}ERROR remote imports still missing after ${MAX_ROUNDS} fetch rounds\n`,
          cacheable: false,
        };
      }
      await this.fetchAll(report.needs, report.policy, snapshot);
    }
  }

  /** True when every remote fact a cached result used still holds. */
  async stillValid(deps: readonly RemoteDep[], policy: FetchPolicy): Promise<boolean> {
    const fetcher = createHttpFetcher(this.fetchOptions(policy));
    try {
      const checks = deps.map(async (dep): Promise<boolean> => {
        try {
          if (dep.kind === 'http') {
            const answer = await this.httpCache.get(this.httpKey(policy, dep.url), dep.url, fetcher.transport);
            if (answer.status === 'ok') return answer.digest === dep.digest;
            return answer.status === 'not-found' && dep.digest === null;
          }
          if (dep.kind === 'oci-tag') {
            const ref = parseReference(dep.reference);
            const digest = await this.resolveTag(ref, policy);
            return dep.pinned.endsWith(`@${digest}`);
          }
          const digest = await this.resolveTag(parseReference(dep.image), policy);
          return digest === dep.resolved;
        } catch {
          return false;
        }
      });
      return (await Promise.all(checks)).every(Boolean);
    } finally {
      await fetcher.close();
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled(
      [...this.registries.values()].map(async (r) => {
        await r.client.close();
        await r.agent?.close();
      }),
    );
  }

  private fetchOptions(policy: FetchPolicy): Parameters<typeof createHttpFetcher>[0] {
    return {
      allowHosts: policy.allowHosts,
      ...(policy.onlyAllowedHosts === true ? { onlyAllowedHosts: true } : {}),
      ...(policy.proxy !== undefined && policy.onlyAllowedHosts !== true ? { proxy: policy.proxy } : {}),
      ...this.httpHooks(),
    };
  }

  /** Under the strict rule a registry must be allow-listed even when its bundle is already on disk. */
  private async checkRegistry(ref: Reference, policy: FetchPolicy): Promise<void> {
    if (policy.onlyAllowedHosts !== true) return;
    const host = new URL(`http://${apiHost(ref.registry)}`).hostname;
    const why = await strictHostRefusal(policy.allowHosts, host);
    if (why !== undefined) throw new Error(`${formatReference(ref)}: ${why}`);
  }

  private httpHooks(): { onRequest?: (url: string) => void } {
    return this.opts.onHttpRequest ? { onRequest: this.opts.onHttpRequest } : {};
  }

  /** Bodies fetched under one allow-list are never served to a request with another. */
  private httpKey(policy: FetchPolicy, url: string): string {
    return `${policy.onlyAllowedHosts === true ? 'only ' : ''}${[...policy.allowHosts].sort().join(',')}\n${url}`;
  }

  private async fetchAll(needs: RemoteNeed[], policy: FetchPolicy, snapshot: RemoteSnapshot): Promise<void> {
    const fetcher = createHttpFetcher(this.fetchOptions(policy));
    let prefetched = 0;
    const fetchHttp = async (url: string, prefetch: boolean): Promise<void> => {
      const key = keyOf({ kind: 'http', url });
      if (snapshot[key] !== undefined) return;
      const answer = await this.httpCache.get(this.httpKey(policy, url), url, fetcher.transport);
      // A prefetch failure is not a fact the render asked for: leave it to a real need.
      if (prefetch && answer.status !== 'ok') return;
      snapshot[key] =
        answer.status === 'ok'
          ? { kind: 'http', status: 'ok', url, bytes: answer.body, digest: answer.digest }
          : answer.status === 'not-found'
            ? { kind: 'http', status: 'not-found', url }
            : { kind: 'http', status: 'error', url, message: answer.message };
      if (answer.status !== 'ok' || !/\.(jsonnet|libsonnet)$/.test(new URL(url).pathname)) return;
      const next: string[] = [];
      for (const path of staticImports(new TextDecoder().decode(answer.body), url)) {
        if (/^(data|oci|yakl|internal|file):/i.test(path) || path.startsWith('/')) continue;
        let target: string;
        try {
          target = new URL(path, url).href;
        } catch {
          continue;
        }
        if (prefetched < MAX_PREFETCH && snapshot[keyOf({ kind: 'http', url: target })] === undefined) {
          prefetched++;
          next.push(target);
        }
      }
      await Promise.all(next.map((u) => fetchHttp(u, true)));
    };
    try {
      await Promise.all(
        needs.map(async (need) => {
          if (need.kind === 'http') return fetchHttp(need.url, false);
          if (need.kind === 'oci') snapshot[keyOf(need)] = await this.fetchBundle(need.reference, policy);
          else if (need.kind === 'kubocd-package')
            snapshot[keyOf(need)] = await this.fetchKubocdPackage(need.reference, policy);
          else snapshot[keyOf(need)] = await this.fetchImage(need.image, policy);
        }),
      );
    } finally {
      await fetcher.close();
    }
  }

  private registry(policy: FetchPolicy): Registry {
    const strict = policy.onlyAllowedHosts === true;
    const proxy = strict ? undefined : policy.proxy;
    const key = `${[...policy.insecureRegistries].sort().join(',')}\n${policy.dockerConfig ?? ''}${strict ? `\nonly ${[...policy.allowHosts].sort().join(',')}` : ''}${proxy !== undefined ? `\nproxy ${JSON.stringify(proxy)}` : ''}`;
    let reg = this.registries.get(key);
    if (!reg) {
      const agent = strict ? guardedAgent(policy.allowHosts, true) : undefined;
      let credentials: DockerConfigCredentials | undefined;
      let loading: Promise<DockerConfigCredentials | undefined> | undefined;
      const configPath = policy.dockerConfig;
      const client = new RegistryClient({
        insecureRegistries: policy.insecureRegistries,
        ...(agent ? { dispatcher: agent } : {}),
        ...(proxy !== undefined
          ? { proxyEnv: { HTTP_PROXY: proxy.httpProxy, HTTPS_PROXY: proxy.httpsProxy, NO_PROXY: proxy.noProxy } }
          : {}),
        ...(this.opts.onRegistryRequest ? { onRequest: this.opts.onRegistryRequest } : {}),
        credentials: {
          get: async (registry) => {
            if (configPath === undefined) return undefined;
            loading ??= DockerConfigCredentials.fromFile(configPath).catch(() => undefined);
            credentials ??= await loading;
            return credentials?.get(registry);
          },
        },
      });
      reg = { client, store: new BundleStore({ cacheDir: this.cacheDir, client }), ...(agent ? { agent } : {}) };
      this.registries.set(key, reg);
    }
    return reg;
  }

  /** A tag's digest, trusted for the request's TTL; a digest reference answers itself. */
  private async resolveTag(ref: Reference, policy: FetchPolicy): Promise<string> {
    await this.checkRegistry(ref, policy);
    if (ref.digest !== undefined) return ref.digest;
    const key = `${[...policy.insecureRegistries].sort().join(',')}\n${formatReference(ref)}`;
    const known = this.tags.get(key);
    if (known && this.now() - known.at < policy.ociTagTtlMs) return known.digest;
    const { digest } = await this.registry(policy).client.resolve(ref);
    this.tags.set(key, { digest, at: this.now() });
    return digest;
  }

  private async fetchBundle(reference: string, policy: FetchPolicy): Promise<RemoteEntry> {
    try {
      const ref = parseReference(reference);
      const digest = await this.resolveTag(ref, policy);
      const bundle = await this.registry(policy).store.get(pinnedReference(ref, digest));
      return {
        kind: 'oci',
        status: 'ok',
        pinned: formatReference(bundle.reference),
        entrypoint: bundle.config.entrypoint,
        features: [...bundle.features],
        files: Object.fromEntries(bundle.files),
      };
    } catch (err) {
      return { kind: 'oci', status: 'error', message: describe(err) };
    }
  }

  /** A KuboCD package image's content layer (kubocd-fetch.ts), by the tag's current digest. */
  private async fetchKubocdPackage(reference: string, policy: FetchPolicy): Promise<RemoteEntry> {
    try {
      const ref = parseReference(reference);
      const pinned = pinnedReference(ref, await this.resolveTag(ref, policy));
      const content = await fetchKubocdPackageContent(this.registry(policy).client, pinned);
      return {
        kind: 'kubocd-package',
        status: 'ok',
        pinned: formatReference(pinned),
        contentBase64: Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('base64'),
      };
    } catch (err) {
      return { kind: 'kubocd-package', status: 'error', message: describe(err) };
    }
  }

  private async fetchImage(image: string, policy: FetchPolicy): Promise<RemoteEntry> {
    try {
      return { kind: 'image', status: 'ok', resolved: await this.resolveTag(parseReference(image), policy) };
    } catch (err) {
      return { kind: 'image', status: 'error', message: describe(err) };
    }
  }
}
