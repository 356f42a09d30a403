/**
 * Hazard 29: the socket directory must be ours, a real directory, mode 0700;
 * the socket 0600 even under umask 000. Each case runs the real CLI.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { BUILT, Sandbox } from './harness.js';

const isRoot = process.getuid?.() === 0;

describe('socket directory security', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  afterEach(() => sb.cleanup());

  const refused: { name: string; skip?: string | false; prepare: (sb: Sandbox) => void; message: RegExp }[] = [
    {
      name: 'a 0777 directory',
      prepare: (s) => {
        mkdirSync(s.daemonDir);
        chmodSync(s.daemonDir, 0o777);
      },
      message: /refusing to use .*mode is 0777.*chmod 700/,
    },
    {
      name: 'a group-readable directory',
      prepare: (s) => {
        mkdirSync(s.daemonDir);
        chmodSync(s.daemonDir, 0o750);
      },
      message: /refusing to use .*mode is 0750/,
    },
    {
      name: 'a directory owned by another user',
      skip: !isRoot && 'needs root to chown',
      prepare: (s) => {
        mkdirSync(s.daemonDir, { mode: 0o700 });
        chownSync(s.daemonDir, 65534, 65534);
      },
      message: /refusing to use .*owned by uid 65534/,
    },
    {
      name: 'a symlink to a private directory',
      prepare: (s) => {
        const real = join(s.root, 'elsewhere');
        mkdirSync(real, { mode: 0o700 });
        symlinkSync(real, s.daemonDir);
      },
      message: /refusing to use .*symbolic link/,
    },
  ];

  for (const c of refused) {
    it(`refuses ${c.name}`, { skip: c.skip }, async () => {
      sb = new Sandbox();
      c.prepare(sb);
      const r = await sb.run(['show', 'x.json']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, c.message);
      assert.deepEqual(sb.daemonPids(), [], 'no daemon may start in a refused directory');
    });
  }

  it('creates the directory 0700 and the socket 0600 under umask 000', async () => {
    sb = new Sandbox();
    const old = process.umask(0);
    try {
      const r = await sb.run(['daemon', 'start', '--workers', '1']);
      assert.equal(r.code, 0, r.stderr);
    } finally {
      process.umask(old);
    }
    assert.equal(statSync(sb.daemonDir).mode & 0o777, 0o700);
    assert.equal(statSync(sb.socket).mode & 0o777, 0o600);
    assert.equal(statSync(join(sb.daemonDir, 'daemon.lock')).mode & 0o777, 0o600);
  });
});
