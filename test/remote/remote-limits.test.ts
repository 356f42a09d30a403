/**
 * Limits of the remote render service, each proved on a real child: the
 * wall-clock deadline (hazard 16), the memory cap (17), the output cap (18),
 * per-tenant concurrency with a bounded queue (19), poison-input backoff
 * (20), a crashing or killed render beside healthy ones (14, 31), and a server
 * restart in the middle of a request (the client retries once, then reports).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { getText, hasOpenssl, metricValue, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';

const metrics = async (srv: ServerHandle, ca: string): Promise<string> => (await getText(srv.url, ca, '/metrics')).text;

/** 2^40 calls, constant memory: only the deadline stops it. */
const SPIN = 'local f(n) = if n == 0 then 0 else f(n - 1) + f(n - 1); { v: f(40) }';
/**
 * Doubles an array 30 times, then reads its last element: the flat list of 2^30 elements is far past
 * the heap cap, reached well under the deadline (`a + a` alone stays a lazy concatenation).
 */
const HUGE = 'local f(a, n) = if n == 0 then a[std.length(a) - 1] else f(a + a, n - 1); { v: f([1], 30) }';
const DEEP = '('.repeat(100_000) + '1' + ')'.repeat(100_000);
const OK = "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' }, data: { a: std.repeat('z', 10) } }";

describe('remote render limits', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let ca: string;
  let dir: string;

  before(async () => {
    sb = new RemoteSandbox([
      { name: 'team-a', maxConcurrent: 1, maxQueued: 0 },
      { name: 'team-b', maxConcurrent: 2 },
    ]);
    ca = readFileSync(sb.tls.ca, 'utf8');
    srv = await sb.startServer(['--render-timeout', '3s', '--kill-grace', '500ms', '--failure-threshold', '2']);
    dir = sb.clientDir('limits', {
      'spin.jsonnet': SPIN,
      'huge.jsonnet': HUGE,
      'deep.jsonnet': DEEP,
      'ok.jsonnet': OK,
      'ok2.jsonnet': OK.replace("'ok'", "'ok2'"),
    });
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('wall-clock deadline, then the same poison input is refused without rendering (hazards 16, 20)', async () => {
    const r1 = await sb.runClient(dir, 'team-b', srv.url, ['jsonnet', 'spin.jsonnet']);
    assert.equal(r1.code, 1);
    assert.match(r1.stderr, /render timed out/);
    const r2 = await sb.runClient(dir, 'team-b', srv.url, ['jsonnet', 'spin.jsonnet']);
    assert.match(r2.stderr, /render timed out/);
    const r3 = await sb.runClient(dir, 'team-b', srv.url, ['jsonnet', 'spin.jsonnet']);
    assert.match(r3.stderr, /failed 2 times \(last: timeout\)/);
    const m = await metrics(srv, ca);
    assert.equal(metricValue(m, 'kubecfg_remote_child_kills_total', { reason: 'timeout' }), 2);
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-b', outcome: 'backoff' }), 1);
    // Another input renders at once.
    const ok = await sb.runClient(dir, 'team-b', srv.url, ['show', 'ok.jsonnet']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });

  test('a crashing render beside healthy ones: they succeed, it fails, the service stays up (hazards 14, 31)', async () => {
    const [a, b, c] = await Promise.all([
      sb.runClient(dir, 'team-b', srv.url, ['show', 'ok2.jsonnet']),
      sb.runClient(dir, 'team-b', srv.url, ['show', 'ok.jsonnet']),
      sb.runClient(dir, 'team-a', srv.url, ['jsonnet', 'deep.jsonnet']),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.match(a.stdout, /name: ok2/);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(c.code, 1);
    assert.match(c.stderr, /too deeply nested/i);
    const again = await sb.runClient(dir, 'team-b', srv.url, ['show', 'ok.jsonnet']);
    assert.equal(again.code, 0);
  });

  test('per-tenant concurrency with a bounded queue answers busy (hazard 19)', async () => {
    // team-a: one render at a time, no queue. The spin input is fresh for this tenant.
    const slow = sb.runClient(dir, 'team-a', srv.url, ['jsonnet', 'spin.jsonnet']);
    let busy;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      if (metricValue(await metrics(srv, ca), 'kubecfg_remote_renders_in_flight') >= 1) {
        busy = await sb.runClient(dir, 'team-a', srv.url, ['show', 'ok2.jsonnet', '--ext-str', 'x=1']);
        break;
      }
    }
    assert.ok(busy, 'the slow render started');
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /busy/);
    assert.match((await slow).stderr, /render timed out/);
    const m = await metrics(srv, ca);
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-a', outcome: 'busy' }), 1);
    assert.ok(m.includes('kubecfg_remote_queue_wait_seconds_count'));
  });

  test('server restart mid-request: the client retries once and succeeds; with no server it reports', async () => {
    const port = srv.port;
    const pending = sb.runClient(dir, 'team-b', srv.url, ['show', 'ok2.jsonnet', '--ext-str', 'restart=1'], {
      KUBECFG_REMOTE_RETRY_DELAY_MS: '8000',
    });
    // Kill the service while the request is in flight (the render child takes a while to start).
    await new Promise((r) => setTimeout(r, 1500));
    await srv.stop('SIGKILL');
    srv = await sb.startServer(['--render-timeout', '30s'], port);
    const r = await pending;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /name: ok2/);

    await srv.stop('SIGTERM');
    const gone = await sb.runClient(dir, 'team-b', srv.url, ['show', 'ok.jsonnet'], {
      KUBECFG_REMOTE_RETRY_DELAY_MS: '100',
    });
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /cannot reach the render service .*\(after one retry\)/);
    srv = await sb.startServer([], port);
  });
});

/**
 * Memory and output caps on a server whose wall-clock limit is far away (120 s), so that on a slow
 * machine the memory cap, not the deadline, is what stops HUGE.
 */
describe('remote render memory and output caps', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let dir: string;

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-d' }]);
    srv = await sb.startServer(['--render-timeout', '120s', '--render-memory-mb', '96', '--output-bytes', '2000']);
    dir = sb.clientDir('caps', {
      'huge.jsonnet': HUGE,
      'ok.jsonnet': OK,
      'big.jsonnet':
        "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: std.repeat('z', 5000) } }",
      'trace.jsonnet': "std.trace(std.repeat('t', 5000), { a: 1 })",
      'trace10mb.jsonnet': "std.trace(std.repeat('t', 10 * 1024 * 1024), { a: 1 })",
      'error.jsonnet': "error std.repeat('e', 5000)",
    });
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('memory cap and output cap give named errors, never partial output (hazards 17, 18)', async () => {
    const mem = await sb.runClient(dir, 'team-d', srv.url, ['jsonnet', 'huge.jsonnet']);
    assert.equal(mem.code, 1);
    assert.equal(mem.stdout, '');
    assert.match(mem.stderr, /ran out of memory \(limit 96 MiB heap\)/);
    const big = await sb.runClient(dir, 'team-d', srv.url, ['show', 'big.jsonnet']);
    assert.equal(big.code, 1);
    assert.equal(big.stdout, '');
    assert.match(big.stderr, /output is larger than the 2000-byte limit/);
  });

  test('std.trace output and error text are capped too, and the message names that limit', async () => {
    for (const file of ['trace.jsonnet', 'trace10mb.jsonnet', 'error.jsonnet']) {
      const r = await sb.runClient(dir, 'team-d', srv.url, ['jsonnet', file]);
      assert.equal(r.code, 1, `${file}: ${r.stderr.slice(0, 300)}`);
      assert.equal(r.stdout, '', file);
      assert.ok(r.stderr.length < 1000, `${file}: stderr is ${r.stderr.length} bytes`);
      assert.match(
        r.stderr,
        /stderr \(std\.trace output, error text\) are larger than the 2000-byte output limit/,
        file,
      );
    }
    const ok = await sb.runClient(dir, 'team-d', srv.url, ['show', 'ok.jsonnet']);
    assert.equal(ok.code, 0, ok.stderr);
  });
});

describe('remote render CPU limit', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-c' }]);
    srv = await sb.startServer(['--render-timeout', '60s', '--cpu-seconds', '4']);
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('a render past its CPU budget is stopped by SIGXCPU; the next render gets a fresh child', async () => {
    const dir = sb.clientDir('cpu', { 'spin.jsonnet': SPIN, 'ok.jsonnet': OK });
    const spin = await sb.runClient(dir, 'team-c', srv.url, ['jsonnet', 'spin.jsonnet']);
    assert.equal(spin.code, 1);
    assert.match(spin.stderr, /more than the 4s CPU-time limit/);
    const ok = await sb.runClient(dir, 'team-c', srv.url, ['show', 'ok.jsonnet']);
    assert.equal(ok.code, 0, ok.stderr);
  });
});
