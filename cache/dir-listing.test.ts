import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DependencyRecorder, UNREADABLE_DIGEST } from './dependency-recorder.js';
import { CacheFileError } from './cache-error.js';
import { checkDeps, checkDepsSync } from './dep-validation.js';
import { listDir, listDirSync } from './dir-listing.js';
import { tempDir } from '../test/support/temp-dir.js';

function chart(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t);
  fs.mkdirSync(join(dir, 'templates'));
  for (const name of ['service.yaml', 'deployment.yaml', 'Ä.yaml', '_helpers.tpl']) {
    fs.writeFileSync(join(dir, 'templates', name), name);
  }
  fs.mkdirSync(join(dir, 'templates', 'tests'));
  fs.symlinkSync('service.yaml', join(dir, 'templates', 'link.yaml'));
  return join(dir, 'templates');
}

test('listings are sorted by code point and name each entry kind', async (t) => {
  const dir = chart(t);
  const want = [
    { name: '_helpers.tpl', kind: 'file' },
    { name: 'deployment.yaml', kind: 'file' },
    { name: 'link.yaml', kind: 'symlink' },
    { name: 'service.yaml', kind: 'file' },
    { name: 'tests', kind: 'directory' },
    { name: 'Ä.yaml', kind: 'file' },
  ];
  assert.deepEqual(listDirSync(dir), want);
  assert.deepEqual(await listDir(dir), want);
  assert.deepEqual(new DependencyRecorder().listDir(dir), want);
});

test('a recorded listing is invalidated by entries coming, going or being renamed', async (t) => {
  const table: Array<[string, (dir: string) => void]> = [
    ['file added', (dir) => fs.writeFileSync(join(dir, 'ingress.yaml'), '')],
    ['file removed', (dir) => fs.unlinkSync(join(dir, 'service.yaml'))],
    ['file renamed', (dir) => fs.renameSync(join(dir, 'service.yaml'), join(dir, 'svc.yaml'))],
    [
      'file replaced by a directory',
      (dir) => (fs.unlinkSync(join(dir, 'service.yaml')), fs.mkdirSync(join(dir, 'service.yaml'))),
    ],
    ['directory removed', (dir) => fs.rmSync(dir, { recursive: true })],
    ['directory replaced by a file', (dir) => (fs.rmSync(dir, { recursive: true }), fs.writeFileSync(dir, ''))],
  ];
  for (const [name, mutate] of table) {
    const dir = chart(t);
    const recorder = new DependencyRecorder();
    recorder.listDir(dir);
    const deps = recorder.deps();
    assert.equal(checkDepsSync(deps).valid, true, name);
    fs.writeFileSync(join(dir, 'service.yaml'), 'edited content does not change the listing');
    assert.equal((await checkDeps(deps)).valid, true, name);
    mutate(dir);
    assert.equal(checkDepsSync(deps).valid, false, name);
    assert.equal((await checkDeps(deps)).valid, false, name);
  }
});

test('one recorder lists a directory once; later changes show up only in validation', (t) => {
  const dir = chart(t);
  const recorder = new DependencyRecorder();
  const first = recorder.listDir(dir);
  fs.writeFileSync(join(dir, 'new.yaml'), '');
  assert.deepEqual(recorder.listDir(dir), first);
  assert.deepEqual(checkDepsSync(recorder.deps()), { valid: false, path: dir, reason: 'directory entries changed' });
});

test('listing a missing path or a file fails with the path and why', (t) => {
  const dir = chart(t);
  const table: Array<[string, string, RegExp]> = [
    [join(dir, 'absent'), 'CACHE_FILE_NOT_FOUND', /absent: no such file/],
    [join(dir, 'service.yaml', 'below'), 'CACHE_FILE_NOT_FOUND', /no such file/],
    [
      join(dir, 'service.yaml'),
      'CACHE_NOT_DIRECTORY',
      /service\.yaml: is a regular file; only directories can be listed/,
    ],
  ];
  for (const [path, code, message] of table) {
    const recorder = new DependencyRecorder();
    assert.throws(
      () => recorder.listDir(path),
      (err: unknown) => err instanceof CacheFileError && err.code === code && message.test(err.message),
      path,
    );
    const [dep] = recorder.deps();
    if (code === 'CACHE_FILE_NOT_FOUND') assert.deepEqual(dep, { path, exists: false });
    else assert.deepEqual(dep, { path, exists: true, kind: 'dir', digest: UNREADABLE_DIGEST });
  }
});

test('a path both probed and listed keeps both facts', (t) => {
  const dir = chart(t);
  const recorder = new DependencyRecorder();
  assert.equal(recorder.probe(dir), true);
  recorder.listDir(dir);
  assert.deepEqual(
    recorder.deps().map((d) => d.kind ?? 'file'),
    ['file', 'dir'],
  );
});
