/**
 * The remote service's link to the Redis that replicas share (docs/remote.md,
 * "Several replicas"). Redis is a cache here, never a dependency: every
 * command has a short timeout, commands are not queued while disconnected
 * (they fail at once), and a failure is counted and answered with the caller's
 * fallback, so a down or slow Redis turns into local renders, never into a
 * failed one. ioredis reconnects on its own; `state` says what /readyz reports.
 *
 * Keys: `<prefix>:t:<tenant digest>:...`. The tenant part is derived from the
 * authenticated tenant's name on the service side, so no request can name
 * another tenant's keys.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';

export interface RedisLinkOptions {
  url: string;
  /** Per-command timeout; a slower answer counts as a failure. */
  timeoutMs: number;
  /** Prefix of every key (several deployments may share one Redis). */
  keyPrefix: string;
}

export type RedisState = 'up' | 'down';

export class RedisLink {
  readonly client: Redis;
  private lastErrorLog = 0;
  failures = 0;
  /** Called on each failed command, with the operation's name (metrics). */
  onFailure: (op: string) => void = () => {};

  constructor(
    private readonly opts: RedisLinkOptions,
    private readonly logger: Logger,
  ) {
    this.client = new Redis(opts.url, {
      commandTimeout: opts.timeoutMs,
      connectTimeout: Math.max(1000, opts.timeoutMs * 4),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Reconnect for ever, slowly: the service keeps rendering meanwhile.
      retryStrategy: (times) => Math.min(100 * times, 2000),
      lazyConnect: false,
    });
    this.client.on('error', (err: Error) => this.logThrottled(err, 'redis connection error'));
    this.client.on('ready', () => this.logger.info({ redis: this.redacted() }, 'redis connected'));
  }

  get state(): RedisState {
    return this.client.status === 'ready' ? 'up' : 'down';
  }

  /** The key prefix of one tenant: derived from its name, never from request data. */
  tenantPrefix(tenant: string): string {
    return `${this.opts.keyPrefix}:t:${createHash('sha256').update(tenant).digest('hex').slice(0, 32)}`;
  }

  /**
   * Runs one Redis operation; on any failure (down, timeout, error reply) counts it and returns
   * the fallback. Never throws.
   */
  async attempt<T>(op: string, fn: (r: Redis) => Promise<T>, fallback: T): Promise<T> {
    if (this.client.status !== 'ready') {
      this.failed(op, new Error(`redis is ${this.client.status}`));
      return fallback;
    }
    try {
      return await fn(this.client);
    } catch (err) {
      this.failed(op, err);
      return fallback;
    }
  }

  private failed(op: string, err: unknown): void {
    this.failures++;
    this.onFailure(op);
    this.logThrottled(err, `redis ${op} failed; continuing without the shared cache`);
  }

  private logThrottled(err: unknown, msg: string): void {
    const now = performance.now();
    if (now - this.lastErrorLog < 5000) return;
    this.lastErrorLog = now;
    this.logger.warn({ err: err instanceof Error ? err.message : String(err), redis: this.redacted() }, msg);
  }

  /** The URL without its password, for logs. */
  private redacted(): string {
    try {
      const u = new URL(this.opts.url);
      if (u.password) u.password = '***';
      return u.toString();
    } catch {
      return '(invalid url)';
    }
  }

  async close(): Promise<void> {
    this.client.disconnect(false);
  }
}
