import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ResultCache } from './result-cache.js';
import { DependencyRecorder } from './dependency-recorder.js';
import { realAsyncIo, type AsyncDepIo } from './dep-validation.js';
import { wallClockNs, type FileDep } from './file-dep.js';
import { LONG_AGO_SECONDS, tempDir, writeWithMtime } from '../test/support/temp-dir.js';

const SECOND = 1_000_000_000n;

/** Renders `files` (reading each) and returns the deps, as a worker would. */
function render(files: string[], probes: string[] = []): FileDep[] {
  const recorder = new DependencyRecorder({ nowNs: () => wallClockNs() + 10n * SECOND });
  for (const p of probes) recorder.probe(p);
  for (const f of files) recorder.readFile(f);
  return recorder.deps();
}

function tree(t: Parameters<typeof tempDir>[0], names: string[]): string[] {
  const dir = tempDir(t);
  return names.map((name) => {
    const path = join(dir, name);
    writeWithMtime(path, `// ${name}`, LONG_AGO_SECONDS);
    return path;
  });
}

test('serves a cached result while its inputs are unchanged, drops it once one changes', async (t) => {
  const [main, lib] = tree(t, ['main.jsonnet', 'lib.libsonnet']);
  const stale: string[] = [];
  const cache = new ResultCache<string>({ maxBytes: 1000, onStale: (_k, path, why) => stale.push(`${path}: ${why}`) });
  cache.set('req1', 'rendered', render([main!, lib!]), 10);
  assert.equal(await cache.get('req1'), 'rendered');
  fs.writeFileSync(lib!, '// edit'); // no watcher involved: validation alone catches it
  assert.equal(await cache.get('req1'), undefined);
  assert.equal(await cache.get('req1'), undefined);
  assert.deepEqual(stale, [`${lib}: content changed`]);
  const stats = cache.stats();
  assert.equal(stats.hits, 1);
  assert.equal(stats.misses, 2);
  assert.equal(stats.staleOnGet, 1);
  assert.equal(stats.entries, 0);
  assert.equal(stats.trackedPaths, 0);
});

test('byte bound evicts least recently used results and their reverse-index entries', async (t) => {
  const [a, b, c] = tree(t, ['a', 'b', 'c']);
  const cache = new ResultCache<string>({ maxBytes: 100 });
  cache.set('A', 'ra', render([a!]), 40);
  cache.set('B', 'rb', render([b!]), 40);
  cache.set('C', 'rc', render([c!]), 40);
  assert.equal(await cache.get('A'), undefined);
  assert.equal(await cache.get('B'), 'rb');
  assert.equal(await cache.get('C'), 'rc');
  assert.deepEqual([...cache.trackedPaths()].sort(), [b!, c!].sort());
  assert.equal(cache.stats().evictions, 1);
  assert.ok(cache.stats().bytes <= 100);
  cache.set('huge', 'too big', render([a!]), 1000);
  assert.equal(await cache.get('huge'), undefined);
  assert.equal(cache.trackedPaths().has(a!), false);
});

test('invalidatePaths drops exactly the dependents of the given paths', async (t) => {
  const [shared, onlyA, onlyB, onlyC, absent] = tree(t, ['shared', 'a', 'b', 'c', 'absent']);
  fs.unlinkSync(absent!);
  const cache = new ResultCache<string>({ maxBytes: 1000 });
  cache.set('A', 'ra', render([shared!, onlyA!]), 1);
  cache.set('B', 'rb', render([shared!, onlyB!]), 1);
  cache.set('C', 'rc', render([onlyC!], [absent!]), 1);
  const table: Array<[string[], number, string[]]> = [
    [['/nowhere'], 0, ['A', 'B', 'C']],
    [[onlyA!], 1, ['B', 'C']],
    [[absent!], 1, ['B']], // a negative dep counts as a dependency too
    [[shared!, onlyB!], 1, []],
  ];
  for (const [paths, dropped, left] of table) {
    assert.equal(cache.invalidatePaths(paths), dropped, paths.join());
    const present: string[] = [];
    for (const key of ['A', 'B', 'C']) if ((await cache.get(key)) !== undefined) present.push(key);
    assert.deepEqual(present, left, paths.join());
  }
  assert.equal(cache.stats().invalidatedByPath, 3);
});

test('replacing an entry re-indexes it under its new deps only', async (t) => {
  const [x, y] = tree(t, ['x', 'y']);
  const cache = new ResultCache<number>({ maxBytes: 1000 });
  cache.set('K', 1, render([x!]), 1);
  cache.set('K', 2, render([y!]), 1);
  assert.equal(cache.invalidatePaths([x!]), 0);
  assert.equal(await cache.get('K'), 2);
  assert.equal(cache.invalidatePaths([y!]), 1);
});

test('a get racing with a set of the same key never drops the newer entry', async (t) => {
  const [lib] = tree(t, ['lib']);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slowIo: AsyncDepIo = {
    ...realAsyncIo,
    stat: async (p) => (await gate, realAsyncIo.stat(p)),
    hash: realAsyncIo.hash,
  };
  const cache = new ResultCache<string>({ maxBytes: 1000, validation: { io: slowIo } });
  cache.set('K', 'old', render([lib!]), 1);
  const inFlight = cache.get('K');
  fs.writeFileSync(lib!, 'changed');
  cache.set('K', 'new', render([lib!]), 1);
  release();
  assert.equal(await inFlight, undefined); // the old entry was stale
  assert.equal(await cache.get('K'), 'new');
});

test('racily clean deps confirmed by re-hash are refreshed so later gets skip hashing', async (t) => {
  const [lib] = tree(t, ['lib']);
  let hashes = 0;
  const io: AsyncDepIo = {
    ...realAsyncIo,
    stat: realAsyncIo.stat,
    hash: (p) => (hashes++, realAsyncIo.hash(p)),
  };
  const later = () => wallClockNs() + 30n * SECOND;
  const cache = new ResultCache<string>({ maxBytes: 1000, validation: { io, nowNs: later } });
  const recorder = new DependencyRecorder(); // read "now": racy against the fresh ctime
  recorder.readFile(lib!);
  cache.set('K', 'v', recorder.deps(), 1);
  assert.equal(await cache.get('K'), 'v');
  assert.equal(await cache.get('K'), 'v');
  assert.equal(hashes, 1);
});

test('onUntrack reports paths no entry depends on any more, not paths re-tracked at once', async (t) => {
  const [a, b, c] = tree(t, ['a', 'b', 'c']);
  const reports: string[][] = [];
  const cache = new ResultCache<string>({ maxBytes: 100, onUntrack: (paths) => reports.push(paths.sort()) });
  cache.set('K', 'v1', render([a!, b!]), 10);
  cache.set('K', 'v2', render([b!, c!]), 10); // replacement: b stays tracked
  await Promise.resolve();
  assert.deepEqual(reports, [[a!]]);
  cache.set('L', 'big', render([a!]), 95); // evicts K
  await Promise.resolve();
  assert.deepEqual(reports, [[a!], [b!, c!].sort()]);
  cache.invalidatePaths([a!]);
  await Promise.resolve();
  assert.deepEqual(reports.at(-1), [a!]);
});
