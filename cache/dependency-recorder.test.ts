import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DependencyRecorder, UNREADABLE_DIGEST } from './dependency-recorder.js';
import { CacheFileError } from './cache-error.js';
import { digestOf } from './digest.js';
import { depsStillValidSync } from './dep-validation.js';
import { tempDir } from '../test/support/temp-dir.js';

test('readFile returns the bytes and records digest, stat and read time', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, '{ a: 1 }');
  const recorder = new DependencyRecorder({ nowNs: () => 42n });
  assert.equal(Buffer.from(recorder.readFile(lib)).toString(), '{ a: 1 }');
  const [dep] = recorder.deps();
  const st = fs.statSync(lib, { bigint: true });
  assert.deepEqual(dep, {
    path: lib,
    exists: true,
    digest: digestOf('{ a: 1 }'),
    size: 8,
    mtimeNs: st.mtimeNs,
    ctimeNs: st.ctimeNs,
    ino: st.ino,
    dev: st.dev,
    readAtNs: 42n,
  });
});

test('one recorder gives one answer per path (the Importer contract)', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'first');
  const recorder = new DependencyRecorder();
  assert.equal(Buffer.from(recorder.readFile(lib)).toString(), 'first');
  fs.writeFileSync(lib, 'second, longer');
  assert.equal(Buffer.from(recorder.readFile(lib)).toString(), 'first');
  assert.equal(recorder.stats().filesRead, 1);

  const later = join(dir, 'later.libsonnet');
  assert.equal(recorder.probe(later), false);
  fs.writeFileSync(later, 'appeared mid-render');
  assert.equal(recorder.probe(later), false);
  assert.throws(
    () => recorder.readFile(later),
    (err: unknown) => err instanceof CacheFileError && err.code === 'CACHE_FILE_NOT_FOUND',
  );
  // ...but the recorded facts are stale now, so the result must not be reused.
  assert.equal(depsStillValidSync(recorder.deps()), false);
});

test('relative paths are recorded absolute; deps are in first-touch order', (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(join(dir, 'b'), 'b');
  const recorder = new DependencyRecorder();
  recorder.probe(join(dir, 'a'));
  recorder.readFile(join(dir, 'sub', '..', 'b'));
  assert.deepEqual(
    recorder.deps().map((d) => [d.path, d.exists]),
    [
      [join(dir, 'a'), false],
      [join(dir, 'b'), true],
    ],
  );
});

test('probe records existence: negative when absent, existence-only when present', (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(join(dir, 'here'), 'x');
  fs.writeFileSync(join(dir, 'file'), 'x');
  const recorder = new DependencyRecorder();
  const table: Array<[string, boolean]> = [
    [join(dir, 'here'), true],
    [join(dir, 'gone'), false],
    [join(dir, 'file', 'below-a-file'), false],
  ];
  for (const [path, want] of table) assert.equal(recorder.probe(path), want, path);
  assert.deepEqual(recorder.deps(), [
    { path: join(dir, 'here'), exists: true },
    { path: join(dir, 'gone'), exists: false },
    { path: join(dir, 'file', 'below-a-file'), exists: false },
  ]);
  assert.equal(recorder.stats().filesRead, 0);
});

test('a missing file throws CACHE_FILE_NOT_FOUND naming the path and records a negative dep', (t) => {
  const dir = tempDir(t);
  const recorder = new DependencyRecorder();
  const missing = join(dir, 'nope.libsonnet');
  assert.throws(
    () => recorder.readFile(missing),
    (err: unknown) =>
      err instanceof CacheFileError &&
      err.code === 'CACHE_FILE_NOT_FOUND' &&
      err.message === `${missing}: no such file`,
  );
  assert.deepEqual(recorder.deps(), [{ path: missing, exists: false }]);
});

test('non-regular files are refused before being opened, with what they are', { timeout: 10_000 }, (t) => {
  const dir = tempDir(t);
  const cases: Array<[string, RegExp]> = [[dir, /is a directory; only regular files can be read/]];
  if (fs.existsSync('/dev/zero')) cases.push(['/dev/zero', /is a character device/]);
  const fifo = join(dir, 'pipe');
  try {
    execFileSync('mkfifo', [fifo]);
    cases.push([fifo, /is a FIFO \(named pipe\)/]);
    const linkToFifo = join(dir, 'link-to-pipe');
    fs.symlinkSync(fifo, linkToFifo);
    cases.push([linkToFifo, /is a FIFO/]);
  } catch {
    t.diagnostic('mkfifo unavailable: FIFO case skipped');
  }
  for (const [path, message] of cases) {
    const recorder = new DependencyRecorder();
    assert.throws(
      () => recorder.readFile(path),
      (err: unknown) =>
        err instanceof CacheFileError &&
        err.code === 'CACHE_NOT_REGULAR_FILE' &&
        message.test(err.message) &&
        err.message.startsWith(path),
      path,
    );
    // A result that depended on an unreadable path is never reusable.
    assert.deepEqual(recorder.deps(), [{ path, exists: true, digest: UNREADABLE_DIGEST }]);
    assert.equal(depsStillValidSync(recorder.deps()), false);
  }
});

test('symlinks to regular files are followed', (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(join(dir, 'target'), 'content');
  fs.symlinkSync(join(dir, 'target'), join(dir, 'link'));
  const recorder = new DependencyRecorder();
  assert.equal(Buffer.from(recorder.readFile(join(dir, 'link'))).toString(), 'content');
  assert.equal(recorder.deps()[0]!.digest, digestOf('content'));
});

test('files over maxFileBytes are refused with CACHE_FILE_TOO_LARGE', (t) => {
  const dir = tempDir(t);
  const big = join(dir, 'big');
  fs.writeFileSync(big, 'x'.repeat(100_000));
  const recorder = new DependencyRecorder({ maxFileBytes: 1000 });
  assert.throws(
    () => recorder.readFile(big),
    (err: unknown) =>
      err instanceof CacheFileError && err.code === 'CACHE_FILE_TOO_LARGE' && /1000-byte limit/.test(err.message),
  );
  // Larger than one read chunk, under the limit: read whole.
  assert.equal(new DependencyRecorder().readFile(big).byteLength, 100_000);
});

test('deps survive structured clone (worker threads) unchanged', (t) => {
  const dir = tempDir(t);
  fs.writeFileSync(join(dir, 'a'), 'a');
  const recorder = new DependencyRecorder();
  recorder.readFile(join(dir, 'a'));
  recorder.probe(join(dir, 'b'));
  const deps = recorder.deps();
  assert.deepEqual(structuredClone(deps), deps);
  assert.equal(depsStillValidSync(structuredClone(deps)), true);
});

test('malformed paths give CacheFileErrors or negative answers, never raw exceptions', (t) => {
  const dir = tempDir(t);
  const recorder = new DependencyRecorder();
  const nul = join(dir, 'a\0b');
  assert.throws(
    () => recorder.readFile(nul),
    (err: unknown) => err instanceof CacheFileError && err.code === 'CACHE_READ_FAILED' && err.path === nul,
  );
  assert.equal(recorder.probe(join(dir, 'c\0d')), false);
  assert.equal(depsStillValidSync(recorder.deps()), false);
});
