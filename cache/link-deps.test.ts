// Link deps (recordLink + validation) and the pseudo-fs rule, on real files: a retargeted,
// added or removed symlink invalidates; a /proc read never validates; an ordinary read does.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkDeps, checkDepsSync } from './dep-validation.js';
import { DependencyRecorder, UNREADABLE_LINK } from './dependency-recorder.js';
import { pseudoDevicesFromMountinfo, statCannotProveUnchanged } from './pseudo-fs.js';

test('a link dep is invalid once the entry is retargeted, replaced, removed or created', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-deps-'));
  try {
    writeFileSync(join(dir, 'a'), 'A');
    writeFileSync(join(dir, 'b'), 'B');
    symlinkSync('a', join(dir, 'link'));
    const cases: Array<[string, () => void]> = [
      ['retargeted', () => (unlinkSync(join(dir, 'link')), symlinkSync('b', join(dir, 'link')))],
      ['replaced by a file', () => (unlinkSync(join(dir, 'link')), writeFileSync(join(dir, 'link'), 'A'))],
      ['removed', () => unlinkSync(join(dir, 'link'))],
      ['created', () => symlinkSync('a', join(dir, 'link'))],
      ['a plain entry turned into a link', () => (rmSync(join(dir, 'a')), symlinkSync('b', join(dir, 'a')))],
    ];
    for (const [what, change] of cases) {
      const recorder = new DependencyRecorder();
      recorder.recordLink(join(dir, 'link'), what === 'created' ? null : 'a');
      if (what === 'created') unlinkSync(join(dir, 'link'));
      recorder.recordLink(join(dir, 'a'), undefined);
      const deps = recorder.deps();
      assert.equal(checkDepsSync(deps).valid, true, `${what}: valid before`);
      change();
      const sync = checkDepsSync(deps);
      assert.equal(sync.valid, false, `${what}: invalid after`);
      assert.equal((await checkDeps(deps)).valid, false, `${what}: invalid after (async)`);
      // Back to the starting state for the next case.
      rmSync(join(dir, 'link'), { force: true });
      rmSync(join(dir, 'a'), { force: true });
      writeFileSync(join(dir, 'a'), 'A');
      symlinkSync('a', join(dir, 'link'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an unreadable link never validates', () => {
  const recorder = new DependencyRecorder();
  recorder.recordLink('/', UNREADABLE_LINK);
  assert.equal(checkDepsSync(recorder.deps()).valid, false);
});

test(
  'a read of a pseudo file system never validates; an ordinary read does',
  { skip: process.platform !== 'linux' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'pseudo-'));
    try {
      mkdirSync(join(dir, 'd'));
      writeFileSync(join(dir, 'd', 'f'), 'x');
      const recorder = new DependencyRecorder({ nowNs: () => 10n ** 19n });
      recorder.readFile(join(dir, 'd', 'f'));
      recorder.readFile('/proc/self/stat');
      const [plain, proc] = recorder.deps();
      assert.equal(checkDepsSync([plain!], { nowNs: () => 10n ** 19n }).valid, true);
      assert.equal(checkDepsSync([proc!], { nowNs: () => 10n ** 19n }).valid, false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('pseudo-fs rule: size mismatch, and mountinfo types', () => {
  assert.equal(statCannotProveUnchanged({ size: 0, dev: 0n }, 12), true);
  const devices = pseudoDevicesFromMountinfo(
    '22 1 0:21 / /proc rw,nosuid - proc proc rw\n' + '30 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n',
  );
  assert.equal(devices.get('0:21'), true);
  assert.equal(devices.get('8:1'), false);
});
