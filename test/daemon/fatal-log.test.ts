/**
 * Issue 21: the daemon's own fatal errors land in daemon.log. The CLI that starts the daemon gives
 * it the log as stderr (its status line comes on fd 3), so what only the runtime can say, here a
 * V8 out-of-memory of the main thread, is logged after that CLI is gone. A daemon whose log cannot
 * be opened still reports why (lifecycle.test.ts, "reports a daemon that cannot start").
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, describe, it } from 'node:test';
import { BUILT, hookFile, Sandbox, waitFor } from './harness.js';

describe('daemon fatal errors', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  afterEach(() => sb.cleanup());

  it("a fatal error of the daemon's main thread lands in daemon.log, and the next command starts a new daemon", async () => {
    sb = new Sandbox();
    // A small heap for the CLI and the daemon it spawns (the env is passed on): the fatal comes fast.
    const small = { NODE_OPTIONS: '--max-old-space-size=160' };
    let r = await sb.run(['daemon', 'start', '--workers', '1'], { env: small });
    assert.equal(r.code, 0, r.stderr);
    const [pid] = sb.daemonPids();
    assert.ok(pid, 'a daemon runs');
    process.kill(pid, 'SIGUSR2'); // test hook: allocate on the main thread until V8 gives up
    await waitFor('the daemon dies', () => !sb.daemonPids().includes(pid) || undefined, 60_000);
    const log = readFileSync(sb.logFile, 'utf8');
    assert.match(log, /Reached heap limit|JavaScript heap out of memory/);
    r = await sb.run(['show', hookFile(sb, 'after', 'echo after')]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'after\n');
  });
});
