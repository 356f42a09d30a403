/**
 * Command-line options of the remote render service (`node
 * dist/server/remote/main.js`, docs/remote.md). TLS and a tokens file are
 * required: the service never serves plaintext. Durations take Go-style units
 * (90s, 30m, 1h); sizes are MiB.
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { optionArgs, OptionsError, parseDuration, parseListen } from '../options.js';

export interface RemoteOptions {
  listen: { host: string; port: number };
  tlsCert: string;
  tlsKey: string;
  tokens: string;
  /** Blob stores (one directory per tenant). */
  storeDir: string;
  /** Parent of the per-request work directories (created 0700; emptied at start). */
  workDir: string;
  /** Where fetched OCI bundles are kept by digest; default: `fetched` beside the store. */
  fetchCacheDir: string;
  maxRenders: number;
  queueWaitMs: number;
  renderTimeoutMs: number;
  killGraceMs: number;
  cpuSeconds: number;
  renderMemoryMb: number;
  /** RLIMIT_AS of a render child; 0 = not set. */
  addressSpaceMb: number;
  outputBytes: number;
  resultCacheMb: number;
  blobStoreMb: number;
  failureThreshold: number;
  failureCooldownMs: number;
  drainTimeoutMs: number;
  logLevel: string;
  /** The Redis replicas share (blobs, results, render lock); empty: this replica stands alone. */
  redisUrl: string;
  redisTimeoutMs: number;
  redisKeyPrefix: string;
  /** How long shared blobs and results live in Redis (Redis also evicts under maxmemory). */
  sharedTtlMs: number;
  /** Largest blob or result entry written to Redis. */
  sharedEntryBytes: number;
}

function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1) throw new OptionsError(`--${name} needs a positive integer, got "${text}"`);
  return n;
}

export function parseRemoteOptions(argv: readonly string[], env: Record<string, string | undefined>): RemoteOptions {
  const state = env.XDG_STATE_HOME || `${env.HOME ?? '/var/lib'}/.local/state`;
  const opts: Partial<RemoteOptions> & Omit<RemoteOptions, 'tlsCert' | 'tlsKey' | 'tokens' | 'fetchCacheDir'> = {
    listen: { host: '127.0.0.1', port: 8443 },
    storeDir: `${state}/kubecfg-remote/blobs`,
    workDir: `${state}/kubecfg-remote/work`,
    maxRenders: Math.max(1, availableParallelism()),
    queueWaitMs: 30_000,
    renderTimeoutMs: 60_000,
    killGraceMs: 2_000,
    cpuSeconds: 60,
    renderMemoryMb: 1024,
    addressSpaceMb: -1,
    outputBytes: 4 * 1024 * 1024,
    resultCacheMb: 256,
    blobStoreMb: 2048,
    failureThreshold: 3,
    failureCooldownMs: 3_600_000,
    drainTimeoutMs: 30_000,
    logLevel: env.KUBECFG_REMOTE_LOG_LEVEL ?? 'info',
    // From the environment too, so a Secret can hold a URL with a password.
    redisUrl: env.KUBECFG_REMOTE_REDIS_URL ?? '',
    redisTimeoutMs: 250,
    redisKeyPrefix: 'kubecfg-remote',
    sharedTtlMs: 24 * 3_600_000,
    sharedEntryBytes: 8 * 1024 * 1024,
  };
  for (const { arg, name, value } of optionArgs(argv)) {
    switch (name) {
      case '--listen':
        opts.listen = parseListen(value());
        break;
      case '--tls-cert':
        opts.tlsCert = value();
        break;
      case '--tls-key':
        opts.tlsKey = value();
        break;
      case '--tokens':
        opts.tokens = value();
        break;
      case '--store':
        opts.storeDir = value();
        break;
      case '--work-dir':
        opts.workDir = value();
        break;
      case '--fetch-cache':
        opts.fetchCacheDir = value();
        break;
      case '--max-renders':
        opts.maxRenders = positiveInt('max-renders', value());
        break;
      case '--queue-wait':
        opts.queueWaitMs = parseDuration(value());
        break;
      case '--render-timeout':
        opts.renderTimeoutMs = Math.max(1, parseDuration(value()));
        break;
      case '--kill-grace':
        opts.killGraceMs = parseDuration(value());
        break;
      case '--cpu-seconds':
        opts.cpuSeconds = positiveInt('cpu-seconds', value());
        break;
      case '--render-memory-mb':
        opts.renderMemoryMb = positiveInt('render-memory-mb', value());
        break;
      case '--address-space-mb': {
        const v = value();
        opts.addressSpaceMb = v === '0' ? 0 : positiveInt('address-space-mb', v);
        break;
      }
      case '--output-mb':
        opts.outputBytes = positiveInt('output-mb', value()) * 1024 * 1024;
        break;
      case '--output-bytes':
        opts.outputBytes = positiveInt('output-bytes', value());
        break;
      case '--result-cache-mb':
        opts.resultCacheMb = positiveInt('result-cache-mb', value());
        break;
      case '--blob-store-mb':
        opts.blobStoreMb = positiveInt('blob-store-mb', value());
        break;
      case '--failure-threshold':
        opts.failureThreshold = positiveInt('failure-threshold', value());
        break;
      case '--failure-cooldown':
        opts.failureCooldownMs = parseDuration(value());
        break;
      case '--drain-timeout':
        opts.drainTimeoutMs = parseDuration(value());
        break;
      case '--log-level':
        opts.logLevel = value();
        break;
      case '--redis-url': {
        const v = value();
        if (v !== '' && !/^rediss?:\/\//.test(v))
          throw new OptionsError(`--redis-url needs a redis:// or rediss:// URL, got "${v}"`);
        opts.redisUrl = v;
        break;
      }
      case '--redis-timeout':
        opts.redisTimeoutMs = Math.max(1, parseDuration(value()));
        break;
      case '--redis-key-prefix':
        opts.redisKeyPrefix = value();
        break;
      case '--shared-ttl':
        opts.sharedTtlMs = Math.max(1000, parseDuration(value()));
        break;
      case '--shared-entry-mb':
        opts.sharedEntryBytes = positiveInt('shared-entry-mb', value()) * 1024 * 1024;
        break;
      default:
        throw new OptionsError(`unknown option ${arg}`);
    }
  }
  if (!opts.tlsCert || !opts.tlsKey)
    throw new OptionsError('--tls-cert and --tls-key are required (the service only serves TLS)');
  if (!opts.tokens) throw new OptionsError('--tokens FILE is required (token → tenant, mode 0600)');
  // Beside the store, so a deployment that mounts one writable state volume covers both.
  opts.fetchCacheDir ??= join(dirname(opts.storeDir), 'fetched');
  // Default address-space limit: room for the heap twice over plus the runtime.
  if (opts.addressSpaceMb === -1) opts.addressSpaceMb = opts.renderMemoryMb * 2 + 2048;
  return opts as RemoteOptions;
}
