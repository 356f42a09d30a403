// Hazard 32 (cache served stale after a same-size edit inside one mtime tick) and the negative
// dependency rule, on a real file system and, where the file system cannot produce the exact
// situation (identical ctime), with an injected one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DependencyRecorder } from './dependency-recorder.js';
import {
  checkDeps,
  checkDepsSync,
  depsStillValid,
  depsStillValidSync,
  isRacilyClean,
  realAsyncIo,
  realSyncIo,
  verdictFromStat,
  type AsyncDepIo,
  type SyncDepIo,
} from './dep-validation.js';
import { digestOf } from './digest.js';
import type { FileDep } from './file-dep.js';
import { wallClockNs } from './file-dep.js';
import { LONG_AGO_SECONDS, tempDir, writeWithMtime } from '../test/support/temp-dir.js';

const SECOND = 1_000_000_000n;

/** Real I/O that counts how often file contents are read for hashing. */
function countingIo(): { sync: SyncDepIo; async: AsyncDepIo; hashes: () => number } {
  let hashes = 0;
  return {
    sync: { ...realSyncIo, hash: (p) => (hashes++, realSyncIo.hash(p)) },
    async: { ...realAsyncIo, hash: (p) => (hashes++, realAsyncIo.hash(p)) },
    hashes: () => hashes,
  };
}

/**
 * A recorder whose reads look like they happened well after every timestamp in the test (10 s
 * ahead of the wall clock). Validation without an injected clock then sees the clock "behind" the
 * read and re-hashes, which is correct but slower; tests counting reads inject a later clock.
 */
function settledRecorder(): DependencyRecorder {
  return new DependencyRecorder({ nowNs: () => wallClockNs() + 10n * SECOND });
}

/** Both validators must agree on every case. */
async function bothValid(deps: FileDep[]): Promise<boolean> {
  const sync = depsStillValidSync(deps);
  const async_ = await depsStillValid(deps);
  assert.equal(sync, async_, 'sync and async validation disagree');
  return sync;
}

test('hazard 32: same-size edit with the mtime restored is caught', async (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, '{ replicas: 1 }');
  const before = fs.statSync(lib);
  const recorder = new DependencyRecorder();
  recorder.readFile(lib);
  fs.writeFileSync(lib, '{ replicas: 9 }');
  fs.utimesSync(lib, before.atime, before.mtime); // `touch -r`: same size, same mtime
  assert.equal(await bothValid(recorder.deps()), false);
  const check = checkDepsSync(recorder.deps());
  assert.deepEqual(check, { valid: false, path: lib, reason: 'content changed' });
});

test('hazard 32: tar-extracted tree with fixed mtimes, then mv of a same-size file over it', async (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  writeWithMtime(lib, 'local x = 1; x', LONG_AGO_SECONDS);
  const recorder = settledRecorder();
  recorder.readFile(lib);
  assert.equal(await bothValid(recorder.deps()), true);

  const replacement = join(dir, 'incoming.libsonnet');
  writeWithMtime(replacement, 'local x = 2; x', LONG_AGO_SECONDS);
  fs.renameSync(replacement, lib);
  assert.equal(await bothValid(recorder.deps()), false);
});

test('hazard 32: in-place same-size rewrite with the fixed mtime put back (same inode)', async (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  writeWithMtime(lib, 'aaaa', LONG_AGO_SECONDS);
  const recorder = settledRecorder();
  recorder.readFile(lib);
  const ino = fs.statSync(lib).ino;
  writeWithMtime(lib, 'bbbb', LONG_AGO_SECONDS);
  assert.equal(fs.statSync(lib).ino, ino);
  assert.equal(await bothValid(recorder.deps()), false);
});

test('hazard 32: clock stepped backwards (new content, older mtime) is caught', async (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  writeWithMtime(lib, 'v1', LONG_AGO_SECONDS);
  const recorder = settledRecorder();
  recorder.readFile(lib);
  writeWithMtime(lib, 'v2', LONG_AGO_SECONDS - 3600);
  assert.equal(await bothValid(recorder.deps()), false);
});

test('an unchanged, settled file is valid without being read again', async (t) => {
  const dir = tempDir(t);
  const files = ['a.libsonnet', 'b.libsonnet', 'c.jsonnet'].map((name) => join(dir, name));
  for (const f of files) writeWithMtime(f, `// ${f}`, LONG_AGO_SECONDS);
  const recorder = settledRecorder();
  for (const f of files) recorder.readFile(f);
  const io = countingIo();
  const later = () => wallClockNs() + 20n * SECOND; // after the (simulated) read time
  assert.deepEqual(checkDepsSync(recorder.deps(), { io: io.sync, nowNs: later }), { valid: true });
  assert.deepEqual(await checkDeps(recorder.deps(), { io: io.async, nowNs: later }), { valid: true });
  assert.equal(io.hashes(), 0);
});

test('a touched but unchanged file is re-hashed, stays valid, and comes back refreshed', async (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  writeWithMtime(lib, 'same', LONG_AGO_SECONDS);
  const recorder = settledRecorder();
  recorder.readFile(lib);
  fs.utimesSync(lib, LONG_AGO_SECONDS + 60, LONG_AGO_SECONDS + 60); // touch without edit
  const io = countingIo();
  const later = () => wallClockNs() + 20n * SECOND;
  const check = await checkDeps(recorder.deps(), { io: io.async, nowNs: later });
  assert.equal(check.valid, true);
  assert.equal(io.hashes(), 1);
  assert.ok(check.valid && check.refreshed);
  const refreshed = check.refreshed[0]!;
  assert.equal(refreshed.mtimeNs, fs.statSync(lib, { bigint: true }).mtimeNs);
  // With the refreshed stat the next check is a pure stat comparison again.
  assert.deepEqual(checkDepsSync(check.refreshed, { io: io.sync, nowNs: later }), { valid: true });
  assert.equal(io.hashes(), 1);
});

test('a freshly written file is racily clean and re-hashed on every check until it settles', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'fresh');
  const recorder = new DependencyRecorder();
  recorder.readFile(lib);
  const [dep] = recorder.deps();
  assert.equal(isRacilyClean(dep!), true);
  const io = countingIo();
  assert.equal(checkDepsSync([dep!], { io: io.sync }).valid, true);
  assert.equal(checkDepsSync([dep!], { io: io.sync }).valid, true);
  assert.equal(io.hashes(), 2);
});

test('negative deps: a file appearing in a search directory invalidates', async (t) => {
  const dir = tempDir(t);
  const searchDirs = ['vendor', 'lib'].map((name) => join(dir, name));
  for (const d of searchDirs) fs.mkdirSync(d);
  writeWithMtime(join(searchDirs[1]!, 'k.libsonnet'), '{}', LONG_AGO_SECONDS);
  // The importer looks in vendor/ first, then lib/.
  const recorder = settledRecorder();
  const found = searchDirs.map((d) => join(d, 'k.libsonnet')).find((p) => recorder.probe(p));
  recorder.readFile(found!);
  const deps = recorder.deps();
  assert.equal(await bothValid(deps), true);
  fs.writeFileSync(join(searchDirs[0]!, 'k.libsonnet'), '{ shadow: true }');
  assert.equal(await bothValid(deps), false);
  assert.deepEqual(checkDepsSync(deps), {
    valid: false,
    path: join(searchDirs[0]!, 'k.libsonnet'),
    reason: 'now exists (it did not when the result was computed)',
  });
});

test('negative deps: a missing parent directory appearing with the file invalidates', async (t) => {
  const dir = tempDir(t);
  const recorder = new DependencyRecorder();
  const path = join(dir, 'not-yet', 'x.libsonnet');
  assert.equal(recorder.probe(path), false);
  assert.equal(await bothValid(recorder.deps()), true);
  fs.mkdirSync(join(dir, 'not-yet'));
  assert.equal(await bothValid(recorder.deps()), true);
  fs.writeFileSync(path, '{}');
  assert.equal(await bothValid(recorder.deps()), false);
});

test('deleted, replaced-by-directory and probed-then-deleted deps are invalid', async (t) => {
  const dir = tempDir(t);
  const table: Array<{ name: string; mutate: (path: string) => void; probeOnly?: boolean; reason: string }> = [
    { name: 'deleted', mutate: (p) => fs.unlinkSync(p), reason: 'no longer exists' },
    {
      name: 'now a directory',
      mutate: (p) => (fs.unlinkSync(p), fs.mkdirSync(p)),
      reason: 'is no longer a regular file',
    },
    { name: 'probed then deleted', mutate: (p) => fs.unlinkSync(p), probeOnly: true, reason: 'no longer exists' },
  ];
  for (const row of table) {
    const path = join(dir, row.name.replaceAll(' ', '-'));
    writeWithMtime(path, 'x', LONG_AGO_SECONDS);
    const recorder = settledRecorder();
    if (row.probeOnly) recorder.probe(path);
    else recorder.readFile(path);
    assert.equal(await bothValid(recorder.deps()), true, row.name);
    row.mutate(path);
    assert.deepEqual(checkDepsSync(recorder.deps()), { valid: false, path, reason: row.reason }, row.name);
    assert.deepEqual(await checkDeps(recorder.deps()), { valid: false, path, reason: row.reason }, row.name);
  }
});

test('racy rule on an exact stat match: re-hash when racy, trust stat when settled', () => {
  // A file system with coarse ctime can leave every stat field equal after an edit; real
  // Linux tmpfs/ext4 cannot reproduce that, so the stat is injected here.
  const stat = { size: 4, mtimeNs: 100n * SECOND, ctimeNs: 100n * SECOND, ino: 7n, dev: 1n };
  const dep = (readAtNs: bigint): FileDep => ({
    path: '/p',
    exists: true,
    digest: digestOf('old!'),
    ...stat,
    readAtNs,
  });
  const sameStatNow = {
    stat: () => ({ kind: 'present' as const, stat: { ...stat, isFile: true, isDirectory: false } }),
  };
  let hashes = 0;
  const io: SyncDepIo = {
    ...sameStatNow,
    list: () => ({ kind: 'missing' }),
    hash: () => (
      hashes++,
      { kind: 'hashed', digest: digestOf('new!'), stat: { ...stat, isFile: true, isDirectory: false } }
    ),
  };
  const table: Array<[string, bigint, boolean, number]> = [
    ['read in the same tick as the write', 100n * SECOND, false, 1],
    ['read 1 s after the write (inside the window)', 101n * SECOND, false, 1],
    ['read 2 s after the write (window edge, still racy)', 102n * SECOND, false, 1],
    ['read long after the write', 500n * SECOND, true, 0],
    ['read "before" the write (clock stepped back)', 50n * SECOND, false, 1],
  ];
  for (const [name, readAt, wantValid, wantHashes] of table) {
    hashes = 0;
    assert.equal(checkDepsSync([dep(readAt)], { io }).valid, wantValid, name);
    assert.equal(hashes, wantHashes, name);
  }
});

test('verdictFromStat covers every kind of dep', () => {
  const present = {
    kind: 'present' as const,
    stat: { size: 1, mtimeNs: 1n, ctimeNs: 1n, ino: 1n, dev: 1n, isFile: true, isDirectory: false },
  };
  const presentDir = { kind: 'present' as const, stat: { ...present.stat, isFile: false, isDirectory: true } };
  const missing = { kind: 'missing' as const };
  const table: Array<[string, FileDep, Parameters<typeof verdictFromStat>[1], string]> = [
    ['negative, still missing', { path: '/x', exists: false }, missing, 'valid'],
    ['negative, now present', { path: '/x', exists: false }, present, 'invalid'],
    ['probed, still present', { path: '/x', exists: true }, present, 'valid'],
    ['probed, now missing', { path: '/x', exists: true }, missing, 'invalid'],
    ['read, no stat recorded', { path: '/x', exists: true, digest: 'd' }, present, 'rehash'],
    ['read, stat check failed', { path: '/x', exists: true, digest: 'd' }, { kind: 'error', why: 'EACCES' }, 'invalid'],
    ['listed, still a directory', { path: '/x', exists: true, kind: 'dir', digest: 'd' }, presentDir, 'relist'],
    ['listed, now a file', { path: '/x', exists: true, kind: 'dir', digest: 'd' }, present, 'invalid'],
    ['read, now a directory', { path: '/x', exists: true, digest: 'd', size: 1 }, presentDir, 'invalid'],
  ];
  for (const [name, dep, probe, want] of table)
    assert.equal(verdictFromStat(dep, probe, 2n * SECOND, 10n * SECOND).kind, want, name);
});

test('an empty dependency set is valid', async () => {
  assert.equal(await bothValid([]), true);
});
