/**
 * One render per key across the fleet: a Redis lock with a lease. The replica
 * that takes `lock:<request key>:<manifest digest>` renders; a lease renewed
 * while it renders keeps the lock, and a replica that dies lets it expire.
 * Every other replica asked for the same result waits, polling the shared
 * result cache; it stops waiting when the result appears, when the lock is
 * free again (the winner failed, or produced nothing cacheable: the waiter
 * then tries to take the lock itself), when Redis goes away, or at its
 * deadline, and then renders on its own. Waiting never fails a request.
 */
import { randomBytes } from 'node:crypto';
import type { RedisLink } from './redis-link.js';

// Compare-and-delete and compare-and-extend: only the holder may release or renew.
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
const RENEW =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

export interface HeldLock {
  release(): Promise<void>;
}

export interface RenderLockOptions {
  leaseMs: number;
  pollMs: number;
}

export function renderLockKey(link: RedisLink, tenant: string, key: string, manifestDigest: string): string {
  return `${link.tenantPrefix(tenant)}:lock:${key}:${manifestDigest}`;
}

export class RenderLock {
  waits = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly opts: RenderLockOptions,
  ) {}

  /** Takes the lock, or answers undefined when another holder has it (or Redis is away: then `down`). */
  async tryAcquire(lockKey: string): Promise<HeldLock | 'held' | 'down'> {
    const owner = randomBytes(12).toString('hex');
    const got = await this.link.attempt(
      'lock',
      async (r) => ((await r.set(lockKey, owner, 'PX', this.opts.leaseMs, 'NX')) === 'OK' ? 'ok' : 'held'),
      'down' as const,
    );
    if (got !== 'ok') return got;
    const renew = setInterval(
      () => void this.link.attempt('lock-renew', (r) => r.eval(RENEW, 1, lockKey, owner, this.opts.leaseMs), 0),
      Math.max(50, Math.floor(this.opts.leaseMs / 3)),
    );
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await this.link.attempt('unlock', (r) => r.eval(RELEASE, 1, lockKey, owner), 0);
      },
    };
  }

  /**
   * Waits while another replica holds the lock. Resolves to what `check` found (the winner's
   * result), or undefined when the caller should try the lock again or render itself.
   */
  async waitFor<T>(
    lockKey: string,
    check: () => Promise<T | undefined>,
    deadlineMs: number,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    this.waits++;
    const end = performance.now() + deadlineMs;
    while (performance.now() < end && !signal?.aborted) {
      await new Promise((r) => setTimeout(r, this.opts.pollMs));
      const found = await check();
      if (found !== undefined) return found;
      const holder = await this.link.attempt('lock-peek', (r) => r.exists(lockKey), -1);
      if (holder !== 1) return undefined;
    }
    return undefined;
  }
}
