// The token bucket against a fake clock: client-go's defaults (5 QPS, burst 10; discovery burst 300),
// --qps-limit 0 meaning the default and a negative value meaning no limiter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rateLimits, TokenBucket, type LimiterClock } from './rate-limiter.js';

/** A clock that only moves when told to, or when a caller sleeps. */
function fakeClock(): LimiterClock & { advance(ms: number): void; slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => t,
    advance: (ms) => (t += ms),
    sleep: async (ms) => {
      slept.push(ms);
      t += ms;
    },
  };
}

test('a full bucket lets burst requests through, then one per 1/qps seconds', async () => {
  const clock = fakeClock();
  const b = new TokenBucket(5, 10, clock);
  for (let i = 0; i < 15; i++) await b.take();
  assert.deepEqual(clock.slept, [200, 200, 200, 200, 200]);
});

test('reservations queue: waiters without time passing wait 1/qps more each', () => {
  const b = new TokenBucket(2, 1, fakeClock());
  assert.deepEqual([b.reserve(), b.reserve(), b.reserve(), b.reserve()], [0, 500, 1000, 1500]);
});

test('tokens refill with time, never above burst', () => {
  const clock = fakeClock();
  const b = new TokenBucket(1, 3, clock);
  assert.deepEqual([b.reserve(), b.reserve(), b.reserve()], [0, 0, 0]);
  clock.advance(60_000);
  assert.deepEqual([b.reserve(), b.reserve(), b.reserve(), b.reserve()], [0, 0, 0, 1000]);
});

test('--qps-limit: 0 is the default 5 QPS, a negative value no limiter, others the rate', () => {
  const cases: { flag: number | undefined; qps?: number }[] = [
    { flag: undefined, qps: 5 },
    { flag: 0, qps: 5 },
    { flag: 50, qps: 50 },
    { flag: 0.5, qps: 0.5 },
    { flag: -1 },
  ];
  for (const c of cases) {
    const limits = rateLimits(c.flag, fakeClock());
    assert.equal(limits.requests?.qps, c.qps, `flag ${c.flag}`);
    assert.equal(limits.requests?.burst, c.qps === undefined ? undefined : 10);
    assert.equal(limits.discovery?.qps, c.qps);
    assert.equal(limits.discovery?.burst, c.qps === undefined ? undefined : 300);
  }
});
