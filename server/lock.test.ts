import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { daemonPaths, type DaemonPaths } from '../client-cli/paths.js';
import { acquireDaemonLock, holderAlive, procStartTime } from './lock.js';

describe('daemon lock', () => {
  let root: string;
  let paths: DaemonPaths;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kcfg-lock-'));
    paths = {
      ...daemonPaths({ XDG_RUNTIME_DIR: root, XDG_STATE_HOME: root }),
      dir: root,
      lock: join(root, 'daemon.lock'),
      lockBreak: join(root, 'daemon.lock.break'),
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is exclusive while held and released only by its owner', () => {
    const first = acquireDaemonLock(paths);
    assert.equal(first.acquired, true);
    const second = acquireDaemonLock(paths);
    assert.deepEqual(second, { acquired: false, holderPid: process.pid });
    if (first.acquired) first.release();
    assert.equal(existsSync(paths.lock), false);
    const third = acquireDaemonLock(paths);
    assert.equal(third.acquired, true);
    // A release by a lock that is not the current one must not remove it.
    if (first.acquired) first.release();
    assert.equal(existsSync(paths.lock), true);
  });

  const stale: [string, string][] = [
    ['a dead pid', JSON.stringify({ pid: 2 ** 22 + 4321, procStart: null, nonce: 'n' })],
    [
      'our pid with another start time (pid reuse)',
      JSON.stringify({ pid: process.pid, procStart: 'not-a-start-time', nonce: 'n' }),
    ],
    ['garbage', '{"half": '],
  ];
  for (const [name, content] of stale) {
    it(
      `breaks a stale lock holding ${name}`,
      { skip: name.includes('reuse') && procStartTime(process.pid) === null && 'no /proc' },
      () => {
        writeFileSync(paths.lock, content);
        const got = acquireDaemonLock(paths);
        assert.equal(got.acquired, true);
        assert.match(readFileSync(paths.lock, 'utf8'), new RegExp(`"pid":${process.pid}`));
        assert.equal(existsSync(paths.lockBreak), false, 'the break guard is removed');
      },
    );
  }

  it('leaves no temp files behind', () => {
    const got = acquireDaemonLock(paths);
    assert.equal(got.acquired, true);
    const leftovers = readFileSync(paths.lock, 'utf8');
    assert.ok(leftovers.includes('nonce'));
  });

  it('knows this process is alive', () => {
    assert.equal(holderAlive({ pid: process.pid, procStart: procStartTime(process.pid), nonce: 'x' }), true);
  });
});
