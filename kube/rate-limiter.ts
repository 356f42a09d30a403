/**
 * Client-side rate limiting as client-go does it for kubecfg: a token bucket
 * (golang.org/x/time/rate, which flowcontrol.NewTokenBucketRateLimiter wraps)
 * holding `burst` tokens, refilled at `qps` per second, starting full; each
 * request takes one token and, when none is left, waits until its token is
 * due (reservations queue, so waiters leave in order).
 *
 * kubecfg's --qps-limit sets rest.Config.QPS: 0 means client-go's default of
 * 5, a negative value no limiter at all. Burst is never set by kubecfg, so
 * it is client-go's default 10 for the dynamic client (every object request)
 * and 300 for the discovery client (setDiscoveryDefaults), which has its own
 * bucket; both refill at the same QPS.
 */

const DEFAULT_QPS = 5;
const DEFAULT_BURST = 10;
const DISCOVERY_BURST = 300;

export interface LimiterClock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: LimiterClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly clock: LimiterClock = realClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Takes a token; answers how many ms the caller must wait before using it (0: go now). */
  reserve(): number {
    const now = this.clock.now();
    if (now > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
      this.last = now;
    }
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Waits for a token; resolves with the time waited in ms. */
  async take(): Promise<number> {
    const ms = this.reserve();
    if (ms > 0) await this.clock.sleep(ms);
    return ms;
  }
}

/** The two buckets of one kubecfg run, or none when --qps-limit is negative. */
export interface RateLimits {
  readonly requests?: TokenBucket;
  readonly discovery?: TokenBucket;
}

export function rateLimits(qpsFlag: number | undefined, clock: LimiterClock = realClock): RateLimits {
  const qps = qpsFlag === undefined || qpsFlag === 0 ? DEFAULT_QPS : qpsFlag;
  if (!(qps > 0)) return {};
  return {
    requests: new TokenBucket(qps, DEFAULT_BURST, clock),
    discovery: new TokenBucket(qps, DISCOVERY_BURST, clock),
  };
}
