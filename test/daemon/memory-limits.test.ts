/**
 * Issue 21 item 1: one expression must not kill the daemon. Each allocation
 * pattern below once either aborted the whole daemon process (a worker heap
 * overshooting its limit in one step is a fatal V8 OOM in Node 20) or grew
 * for minutes. Now each ends with a clear error naming the limit, on its own
 * render host, while another client's request and a `show --watch` session
 * on the same daemon keep working; status and daemon.log show each
 * replacement. Limits are lowered (64 MiB heap) to keep the run short.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { BUILT, collect, rpc, Sandbox, waitFor, type RunResult } from './harness.js';

const MEMORY = /ran out of memory \(worker (heap )?limit 64 MiB/;
/** Refused before anything is allocated: the size is known up front (issue 21 item 3). */
const UP_FRONT = /needs at least [\d.]+ [GM]iB, more than the worker heap limit \(64 MiB\)/;

const BOMBS: { name: string; source: string; error: RegExp }[] = [
  // One 160 MB allocation in one step: this is what once aborted the whole daemon; now refused up front.
  { name: 'std.range(0, 2e7) in one step', source: 'std.length(std.range(0, 2e7))', error: UP_FRONT },
  { name: 'std.range(0, 1e8)', source: 'std.range(0, 1e8)', error: UP_FRONT },
  { name: 'std.makeArray(1e9, ...)', source: 'std.makeArray(1e9, function(i) i)', error: UP_FRONT },
  { name: "std.repeat('x', 1e9)", source: "std.repeat('x', 1e9)", error: UP_FRONT },
  {
    name: 'std.join of 100 MB',
    source: "local s = std.repeat('x', 1e6); std.join('', std.makeArray(100, function(i) s))",
    error: UP_FRONT,
  },
  {
    name: 'a 1e6-deep recursion',
    source: 'local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(1000000)',
    error: /max stack frames exceeded/,
  },
  // Sizes not known up front: the worker's limits and the watchdog stop these, and the worker is replaced.
  {
    name: 'a 50 MB string',
    source: "local s = std.repeat('x', 50 * 1024 * 1024); { a: s, b: s + 'y' }",
    error: MEMORY,
  },
  {
    name: 'an array doubled 30 times',
    source: 'local f(a, n) = if n == 0 then a[std.length(a) - 1] else f(a + a, n - 1); f([1], 30)',
    error: MEMORY,
  },
];

describe('memory limits of render workers', { skip: !BUILT && 'run npm run build first', timeout: 300_000 }, () => {
  let sb: Sandbox;
  let watch: ChildProcess;
  let watchDone: Promise<RunResult>;
  let watchOut = '';
  let daemonPid: number;
  let firstPids: number[];

  before(async () => {
    sb = new Sandbox();
    const r = await sb.run(['daemon', 'start', '--workers', '2', '--worker-memory-mb', '64']);
    assert.equal(r.code, 0, r.stderr);
    writeFileSync(
      join(sb.work, 'ok.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok' } }),
    );
    writeFileSync(
      join(sb.work, 'watched.jsonnet'),
      "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w0' } }",
    );
    watch = sb.spawnCli(['show', '--watch', 'watched.jsonnet']);
    watch.stdout!.setEncoding('utf8').on('data', (c: string) => (watchOut += c));
    watchDone = collect(watch);
    await waitFor('the watch session to render', () => (watchOut.includes('name: w0') ? true : undefined), 30_000);
    const st = (await rpc(sb.socket, 'daemon/status', {})).result;
    daemonPid = st.pid;
    firstPids = st.workers.map((w: { pid: number }) => w.pid);
  });
  after(() => sb.cleanup());

  BOMBS.forEach((bomb, i) => {
    it(`${bomb.name} fails alone with a clear error; another client and --watch keep working`, async () => {
      writeFileSync(join(sb.work, `bomb${i}.jsonnet`), bomb.source);
      const running = sb.run(['jsonnet', `bomb${i}.jsonnet`]);
      const other = await sb.run(['show', 'ok.json']);
      assert.equal(other.code, 0, other.stderr);
      assert.match(other.stdout, /name: ok/);
      const r = await running;
      assert.equal(r.code, 1, r.stderr.slice(0, 500));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, bomb.error);

      writeFileSync(
        join(sb.work, 'watched.jsonnet'),
        `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w${i + 1}' } }`,
      );
      await waitFor('the watch session to re-render', () => (watchOut.includes(`name: w${i + 1}`) ? true : undefined));
      assert.deepEqual(sb.daemonPids(), [daemonPid], 'the daemon process is the same one');
    });
  });

  it('status shows the replaced workers and daemon.log has a line for each failure', async () => {
    const st = (await rpc(sb.socket, 'daemon/status', {})).result;
    const ooms = BOMBS.filter((b) => b.error === MEMORY).length;
    assert.equal(st.workersReplaced, ooms);
    assert.equal(st.workers.length, 2);
    const pids = st.workers.map((w: { pid: number }) => w.pid);
    assert.notDeepEqual(pids, firstPids, 'at least one worker runs in a new render host');
    const log = readFileSync(sb.logFile, 'utf8');
    assert.equal(log.match(/ran out of memory.*replacing the worker/g)?.length, ooms, log);
    // A refusal before allocating replaces nothing, and is logged too; so is the stack-depth limit.
    const upFront = BOMBS.filter((b) => b.error === UP_FRONT).length;
    assert.equal(log.match(/render stopped by a limit: .*more than the worker heap limit/g)?.length, upFront, log);
    assert.equal(
      log.match(/render stopped by a limit: max stack frames exceeded \(limit \d+ frames\)/g)?.length,
      1,
      log,
    );
    watch.kill('SIGINT');
    assert.equal((await watchDone).code, 130);
  });
});
