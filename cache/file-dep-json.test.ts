import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileDepFromJson, fileDepToJson } from './file-dep-json.js';
import type { FileDep } from './file-dep.js';

test('FileDep round-trips through JSON', () => {
  const deps: FileDep[] = [
    { path: '/a', exists: false },
    { path: '/b', exists: true },
    { path: '/d', exists: true, kind: 'dir', digest: 'ef' },
    { path: '/l', exists: true, kind: 'link', digest: 'symlink:a' },
    {
      path: '/c',
      exists: true,
      digest: 'ab',
      size: 3,
      mtimeNs: 1_700_000_000_123_456_789n,
      ctimeNs: 2n,
      ino: 18_446_744_073_709_551_615n,
      dev: 4n,
      readAtNs: -5n,
    },
  ];
  for (const dep of deps) {
    const wire = JSON.parse(JSON.stringify(fileDepToJson(dep)));
    assert.deepEqual(fileDepFromJson(wire), dep);
  }
});

test('malformed JSON deps are refused with the field named', () => {
  const table: Array<[unknown, RegExp]> = [
    [null, /dep: expected an object/],
    [{ exists: true }, /dep\.path: expected a string/],
    [{ path: '/x', exists: 'yes' }, /dep\.exists: expected a boolean/],
    [{ path: '/x', exists: true, size: -1 }, /dep\.size: expected a non-negative integer/],
    [{ path: '/x', exists: true, mtimeNs: 12 }, /dep\.mtimeNs: expected a decimal integer string/],
    [{ path: '/x', exists: true, ino: '0x10' }, /dep\.ino: expected a decimal integer string/],
    [{ path: '/x', exists: true, digest: 5 }, /dep\.digest: expected a string/],
  ];
  table.push([{ path: '/x', exists: true, kind: 'file' }, /dep\.kind: expected "dir", "link" or nothing/]);
  for (const [input, message] of table) assert.throws(() => fileDepFromJson(input), message);
  assert.throws(() => fileDepFromJson({}, 'deps[3]'), /deps\[3\]\.path/);
});
