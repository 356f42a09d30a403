/**
 * Daemon lifecycle with real processes: stale socket and lock left by a dead
 * daemon (hazard 28), SIGKILL mid-request, two CLIs racing to start a daemon,
 * version skew (hazard 27), a daemon that cannot start, idle shutdown.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { BUILT, collect, hookFile, rpc, Sandbox, SERVER_MAIN, waitFor } from './harness.js';

describe('daemon lifecycle', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  afterEach(() => sb.cleanup());

  it('cleans up a stale socket and lock left by a dead daemon', async () => {
    sb = new Sandbox();
    mkdirSync(sb.daemonDir, { mode: 0o700 });
    // A socket file nobody listens on, and a lock naming a pid that cannot exist.
    const server = createServer();
    await new Promise<void>((r) => server.listen(sb.socket, r));
    await new Promise<void>((r) => {
      // Closing a listening unix server unlinks its file; re-create it as a leftover instead.
      server.close(() => r());
    });
    writeFileSync(sb.socket, '');
    writeFileSync(
      join(sb.daemonDir, 'daemon.lock'),
      JSON.stringify({ pid: 2 ** 22 + 12345, procStart: null, nonce: 'dead' }) + '\n',
      { mode: 0o600 },
    );
    const file = hookFile(sb, 'hello', 'echo hello');
    const r = await sb.run(['show', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hello\n');
    assert.equal(sb.daemonPids().length, 1);
  });

  it('recovers after the daemon is killed with SIGKILL mid-request', async () => {
    sb = new Sandbox();
    const hang = hookFile(sb, 'hang', 'spin');
    const child = sb.spawnCli(['show', hang]);
    const running = collect(child);
    const [pid] = await waitFor('the daemon to start', () => {
      const p = sb.daemonPids();
      return p.length ? p : undefined;
    });
    await waitFor('the render to be in flight', async () => {
      const st = await rpc(sb.socket, 'daemon/status', {}).catch(() => undefined);
      return st?.result?.requestsInFlight === 1 || undefined;
    });
    process.kill(pid!, 'SIGKILL');
    const first = await running;
    assert.equal(first.code, 1);
    assert.match(first.stderr, /daemon closed the connection|lost the connection/);
    const echo = hookFile(sb, 'echo', 'echo back');
    const again = await sb.run(['show', echo]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, 'back\n');
    const pids = sb.daemonPids();
    assert.equal(pids.length, 1);
    assert.notEqual(pids[0], pid);
  });

  it('starts exactly one daemon when several CLIs start at once', async () => {
    sb = new Sandbox();
    const file = hookFile(sb, 'race', 'echo raced');
    const results = await Promise.all([0, 1, 2, 3].map(() => sb.run(['show', file])));
    for (const r of results) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'raced\n');
    }
    await waitFor('losing daemons to exit', () => sb.daemonPids().length === 1 || undefined);
    assert.equal(sb.daemonPids().length, 1);
  });

  it('replaces a daemon of another build before running the command', async () => {
    sb = new Sandbox();
    const old = spawn(process.execPath, [SERVER_MAIN, '--workers', '1'], {
      env: { ...sb.env, KUBECFG_DAEMON_TEST_BUILD_ID: 'an-older-build' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const line = await new Promise<string>((resolve) =>
      old.stderr.setEncoding('utf8').once('data', (c: string) => resolve(c)),
    );
    assert.match(line, /^READY \d+/);
    const hello = await rpc(sb.socket, 'daemon/hello', { protocolVersion: 1, buildId: 'x' });
    assert.equal(hello.result.buildId, 'an-older-build');
    const file = hookFile(sb, 'skew', 'echo new build');
    const r = await sb.run(['show', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'new build\n');
    await waitFor('the old daemon to exit', () => old.exitCode !== null || undefined);
    const now = await rpc(sb.socket, 'daemon/hello', { protocolVersion: 1, buildId: 'x' });
    assert.notEqual(now.result.buildId, 'an-older-build');
    assert.notEqual(now.result.pid, old.pid);
  });

  it('reports a daemon that cannot start, once, without looping', async () => {
    // The state "directory" is a file, so the daemon cannot open its log.
    sb = new Sandbox();
    writeFileSync(join(sb.root, 'state-file'), '');
    const r = await sb.run(['show', 'x.json'], { env: { XDG_STATE_HOME: join(sb.root, 'state-file') } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /could not start the kubecfg daemon: .*(ENOTDIR|not a directory|EEXIST)/);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    // The failed daemon may still be on its way out when the CLI reports: it must go, not stay.
    await waitFor('the failed daemon exits', () => sb.daemonPids().length === 0 || undefined, 10_000);
  });

  it('stops after the idle timeout and on `daemon stop`', async () => {
    sb = new Sandbox();
    let r = await sb.run(['daemon', 'start', '--idle-timeout', '300ms', '--workers', '1']);
    assert.equal(r.code, 0, r.stderr);
    await waitFor('idle shutdown', () => sb.daemonPids().length === 0 || undefined, 10_000);
    r = await sb.run(['daemon', 'start', '--workers', '1']);
    assert.equal(r.code, 0, r.stderr);
    r = await sb.run(['daemon', 'status']);
    assert.match(r.stdout, /daemon: +running \(pid \d+\)/);
    assert.match(r.stdout, /cache results:/);
    r = await sb.run(['daemon', 'stop']);
    assert.match(r.stdout, /kubecfg daemon stopped/);
    assert.deepEqual(sb.daemonPids(), []);
    r = await sb.run(['daemon', 'status']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /not running/);
    r = await sb.run(['daemon', 'logs', '--lines', '3']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /daemon stopped/);
  });
});
