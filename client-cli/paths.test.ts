import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  checkSecureDir,
  daemonPaths,
  ensureSecureDir,
  InsecureDirError,
  runtimeDirFor,
  stateDirFor,
  SUN_PATH_MAX,
} from './paths.js';

describe('daemon paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'kcfg-paths-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('uses XDG dirs, with fallbacks', () => {
    assert.equal(runtimeDirFor({ XDG_RUNTIME_DIR: '/run/user/7' }, 7), '/run/user/7/kubecfg');
    assert.equal(runtimeDirFor({}, 7), '/tmp/kubecfg-7');
    assert.equal(runtimeDirFor({ XDG_RUNTIME_DIR: 'relative' }, 7), '/tmp/kubecfg-7');
    assert.equal(stateDirFor({ XDG_STATE_HOME: '/s' }), '/s/kubecfg');
    assert.equal(stateDirFor({ HOME: '/home/u' }), '/home/u/.local/state/kubecfg');
  });

  it('keeps the socket path within sun_path', () => {
    const long = '/' + 'x'.repeat(150);
    const dir = runtimeDirFor({ XDG_RUNTIME_DIR: long }, 7);
    assert.match(dir, /^\/tmp\/kubecfg-7-[0-9a-f]{12}$/);
    assert.notEqual(runtimeDirFor({ XDG_RUNTIME_DIR: long + 'y' }, 7), dir);
    assert.ok(Buffer.byteLength(daemonPaths({ XDG_RUNTIME_DIR: long }, 7).socket) <= SUN_PATH_MAX);
  });

  it('creates a private dir and refuses unsafe ones', () => {
    const fresh = join(root, 'a', 'b');
    ensureSecureDir(fresh);
    assert.doesNotThrow(() => checkSecureDir(fresh));
    const open = join(root, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    assert.throws(
      () => ensureSecureDir(open),
      (e: unknown) => e instanceof InsecureDirError && /mode is 0755/.test(e.message),
    );
    const link = join(root, 'link');
    symlinkSync(fresh, link);
    assert.throws(() => checkSecureDir(link), /symbolic link/);
    assert.throws(() => checkSecureDir(fresh, 12345), /owned by uid \d+, not by you \(uid 12345\)/);
  });
});
