// FileContentCache through DependencyRecorder: a later recorder gets an earlier read's bytes only
// when the file's stat is unchanged and that read was not racily clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DependencyRecorder, useSharedContentCache } from './dependency-recorder.js';
import { FileContentCache } from './file-content-cache.js';
import { wallClockNs } from './file-dep.js';
import { tempDir } from '../test/support/temp-dir.js';

/** A clock well past the racy window of files written just now. */
const later = (): bigint => wallClockNs() + 10_000_000_000n;

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString();
}

test('an unchanged, settled file is served from the cache with the dep of its read', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, '{ a: 1 }');
  const contentCache = new FileContentCache();
  const first = new DependencyRecorder({ nowNs: later, contentCache });
  const bytes = first.readFile(lib);
  const second = new DependencyRecorder({ nowNs: later, contentCache });
  assert.equal(second.readFile(lib), bytes, 'the very same buffer: not read again');
  assert.deepEqual(second.deps(), first.deps());
  assert.equal(contentCache.stats().hits, 1);
});

test('any stat change means a real read: an edit of the same size with mtime put back still changes ctime', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'aaaa');
  const contentCache = new FileContentCache();
  new DependencyRecorder({ nowNs: later, contentCache }).readFile(lib);
  const before = fs.statSync(lib);
  // ctime has a coarse clock on some file systems: wait until it can differ.
  const until = Date.now() + 20;
  while (Date.now() < until);
  fs.writeFileSync(lib, 'bbbb');
  fs.utimesSync(lib, before.atime, before.mtime);
  assert.equal(text(new DependencyRecorder({ nowNs: later, contentCache }).readFile(lib)), 'bbbb');
});

test('a read that was racily clean is never served again', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'x');
  const contentCache = new FileContentCache();
  // Read at the real time, right after the write: within the racy window.
  const bytes = new DependencyRecorder({ contentCache }).readFile(lib);
  assert.notEqual(new DependencyRecorder({ nowNs: later, contentCache }).readFile(lib), bytes);
});

test('a clock that went back since the read is not trusted', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'x');
  const contentCache = new FileContentCache();
  const bytes = new DependencyRecorder({ nowNs: later, contentCache }).readFile(lib);
  const earlier = (): bigint => wallClockNs() + 5_000_000_000n;
  assert.notEqual(new DependencyRecorder({ nowNs: earlier, contentCache }).readFile(lib), bytes);
});

test('the shared cache is used by recorders on the real clock only, and a deleted file is still reported', (t) => {
  const dir = tempDir(t);
  const lib = join(dir, 'lib.libsonnet');
  fs.writeFileSync(lib, 'x');
  const shared = new FileContentCache();
  useSharedContentCache(shared);
  t.after(() => useSharedContentCache(undefined));
  const a = new DependencyRecorder({ nowNs: later }).readFile(lib);
  assert.notEqual(new DependencyRecorder({ nowNs: later }).readFile(lib), a);
  assert.equal(shared.stats().entries, 0);
  new DependencyRecorder().readFile(lib);
  assert.equal(shared.stats().entries, 1);
  fs.rmSync(lib);
  assert.throws(() => new DependencyRecorder().readFile(lib), /no such file/);
});
