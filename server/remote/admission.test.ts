import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Admission, BusyError, CancelledError } from './admission.js';
import type { TenantConfig } from './tenants.js';

const tenant = (name: string, maxConcurrent: number, maxQueued: number): TenantConfig => ({
  name,
  allowCode: false,
  maxConcurrent,
  maxQueued,
  importHosts: [],
});

test('at most N per tenant run; the queue is bounded; a released slot goes to the next waiter (hazard 19)', async () => {
  const adm = new Admission(10, 60_000);
  const a = tenant('a', 2, 1);
  const s1 = await adm.acquire(a);
  const s2 = await adm.acquire(a);
  assert.equal(adm.inFlight, 2);
  const queued = adm.acquire(a);
  assert.equal(adm.waiting, 1);
  await assert.rejects(adm.acquire(a), BusyError);
  // Another tenant is not held up by a's queue.
  const other = await adm.acquire(tenant('b', 1, 0));
  s1.release();
  s1.release(); // idempotent
  const s3 = await queued;
  assert.equal(adm.inFlight, 3);
  for (const s of [s2, s3, other]) s.release();
  assert.equal(adm.inFlight, 0);
});

test('the global limit holds across tenants, and a wait that runs out is busy', async () => {
  const adm = new Admission(1, 20);
  const s = await adm.acquire(tenant('a', 5, 5));
  await assert.rejects(adm.acquire(tenant('b', 5, 5)), /no render slot within/);
  assert.equal(adm.waiting, 0);
  s.release();
  (await adm.acquire(tenant('b', 5, 5))).release();
});

test('a queued request whose client went away leaves the queue and frees its place', async () => {
  const adm = new Admission(10, 60_000);
  const a = tenant('a', 1, 1);
  const running = await adm.acquire(a);
  const ctl = new AbortController();
  const queued = adm.acquire(a, ctl.signal);
  assert.equal(adm.waiting, 1);
  ctl.abort();
  await assert.rejects(queued, CancelledError);
  assert.equal(adm.waiting, 0);
  // The queue place is free again: one more may wait.
  const next = adm.acquire(a);
  running.release();
  (await next).release();
  assert.equal(adm.inFlight, 0);
  await assert.rejects(adm.acquire(a, AbortSignal.abort()), CancelledError);
  assert.equal(adm.inFlight, 0);
});
