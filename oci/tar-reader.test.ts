import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTar } from './tar-reader.js';
import { writeTar } from './tar-writer.js';
import { cleanEntryPath } from './archive-path.js';
import { isOciError } from './errors.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Hand-made tar entries, so tests can build archives our writer would never produce. */
function rawEntry(o: {
  name: string;
  type?: string;
  size?: number;
  data?: Uint8Array;
  linkname?: string;
  prefix?: string;
  badChecksum?: boolean;
}): Buffer {
  const data = o.data ?? new Uint8Array(0);
  const h = Buffer.alloc(512);
  h.write(o.name, 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write((o.size ?? data.byteLength).toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.fill(0x20, 148, 156);
  h.write(o.type ?? '0', 156);
  if (o.linkname !== undefined) h.write(o.linkname, 157);
  h.write('ustar\0', 257);
  h.write('00', 263);
  if (o.prefix !== undefined) h.write(o.prefix, 345);
  let sum = 0;
  for (const b of h) sum += b;
  h.write((o.badChecksum === true ? sum + 1 : sum).toString(8).padStart(6, '0') + '\0 ', 148);
  const pad = Buffer.alloc((512 - (data.byteLength % 512)) % 512);
  return Buffer.concat([h, Buffer.from(data), pad]);
}
const archive = (...parts: Buffer[]): Uint8Array => new Uint8Array(Buffer.concat([...parts, Buffer.alloc(1024)]));

test('writer and reader round-trip, including long and non-ASCII names', () => {
  const files = new Map<string, Uint8Array>([
    ['a.jsonnet', enc('{}')],
    ['lib/x.libsonnet', enc('local x = 1; x')],
    ['d/'.repeat(60) + 'deep.libsonnet', enc('1')],
    ['n'.repeat(150) + '.json', enc('[]')],
    ['ünïcode/ファイル.yakl', enc('a: 1')],
    ['empty.txt', new Uint8Array(0)],
    ['block.bin', new Uint8Array(512).fill(7)],
  ]);
  const tar = writeTar([...files].map(([path, data]) => ({ path, data })));
  assert.deepEqual(readTar(tar, 't'), files);
  assert.deepEqual(writeTar([...files].map(([path, data]) => ({ path, data }))), tar, 'same input, same bytes');
});

test('reader accepts a leading ./ and directory entries, and GNU tar style archives', () => {
  const tar = archive(
    rawEntry({ name: './', type: '5' }),
    rawEntry({ name: './lib/', type: '5' }),
    rawEntry({ name: './lib/a.libsonnet', data: enc('1') }),
    rawEntry({ name: 'x', prefix: 'p/q', data: enc('2') }),
  );
  assert.deepEqual([...readTar(tar, 't').keys()], ['lib/a.libsonnet', 'p/q/x']);
});

test('hostile entry names are refused, each with its own reason (hazards 6-7)', () => {
  const table: [string, RegExp][] = [
    ['../../x', /'\.\.'/],
    ['/foo/../../x', /absolute/],
    ['//foo', /absolute/],
    ['\\..\\..\\foo', /backslash/],
    ['/./c://foo', /absolute/],
    ['\\\\?\\Some\\windows\\magic', /backslash/],
    ['C:../x', /drive letter/],
    ['./.', /does not name a file/],
    ['a/./b', /'\.' segment/],
    ['a//b', /empty path segment/],
    ['a/\x01b', /control character/],
  ];
  for (const [name, re] of table) {
    assert.throws(
      () => readTar(archive(rawEntry({ name, data: enc('x') })), 'bundle'),
      (e) => isOciError(e, 'OCI_ARCHIVE') && re.test(e.message),
      name,
    );
  }
});

test('links, devices, duplicates and file/dir clashes are refused (hazard 7)', () => {
  const table: [Uint8Array, RegExp][] = [
    [archive(rawEntry({ name: 'evil', type: '2', linkname: '/etc/passwd' })), /symbolic link/],
    [archive(rawEntry({ name: 'evil', type: '1', linkname: '../../outside' })), /hard link/],
    [
      archive(rawEntry({ name: 'lib', type: '2', linkname: '/tmp' }), rawEntry({ name: 'lib/a', data: enc('x') })),
      /symbolic link/,
    ],
    [archive(rawEntry({ name: 'fifo', type: '6' })), /only regular files/],
    [archive(rawEntry({ name: 'dev', type: '3' })), /only regular files/],
    [archive(rawEntry({ name: 'a', data: enc('1') }), rawEntry({ name: './a', data: enc('2') })), /appears twice/],
    [archive(rawEntry({ name: 'a', data: enc('1') }), rawEntry({ name: 'a/b', data: enc('2') })), /which is a file/],
    [
      archive(rawEntry({ name: 'a/b', data: enc('1') }), rawEntry({ name: 'a', data: enc('2') })),
      /both a file and a directory/,
    ],
    [
      archive(rawEntry({ name: 'a', type: '5' }), rawEntry({ name: 'a', data: enc('2') })),
      /both a file and a directory/,
    ],
  ];
  for (const [tar, re] of table)
    assert.throws(
      () => readTar(tar, 'bundle'),
      (e) => isOciError(e, 'OCI_ARCHIVE') && re.test(e.message),
      String(re),
    );
});

test('header/data size mismatches and corrupt headers are errors (hazard 8c)', () => {
  const longer = archive(rawEntry({ name: 'a', size: 4096, data: enc('short') }));
  const cut = Buffer.concat([rawEntry({ name: 'a', size: 4096, data: enc('short') })]);
  const shorter = archive(rawEntry({ name: 'a', size: 1, data: new Uint8Array(1024).fill(65) }));
  assert.throws(() => readTar(new Uint8Array(cut), 'b'), /size mismatch/);
  assert.throws(() => readTar(shorter, 'b'), /checksum/);
  assert.throws(() => readTar(archive(rawEntry({ name: 'a', data: enc('x'), badChecksum: true })), 'b'), /checksum/);
  assert.throws(() => readTar(longer.subarray(0, 700), 'b'), /size mismatch/);
  assert.throws(() => readTar(enc('not a tar at all'), 'b'), /truncated/);
});

test('per-file, total and entry-count caps apply', () => {
  const big = archive(rawEntry({ name: 'big', data: new Uint8Array(2000) }));
  assert.throws(
    () => readTar(big, 'b', { maxFileBytes: 1000, maxTotalBytes: 10_000, maxEntries: 10 }),
    (e) => isOciError(e, 'OCI_ARCHIVE') && /per-file cap/.test(e.message),
  );
  const many = archive(...Array.from({ length: 5 }, (_, i) => rawEntry({ name: `f${i}`, data: new Uint8Array(600) })));
  assert.throws(
    () => readTar(many, 'b', { maxFileBytes: 1000, maxTotalBytes: 2000, maxEntries: 10 }),
    /add up to more than/,
  );
  assert.throws(
    () => readTar(many, 'b', { maxFileBytes: 1000, maxTotalBytes: 100_000, maxEntries: 3 }),
    /more than 3 entries/,
  );
});

test('cleanEntryPath keeps good relative paths and drops a leading ./', () => {
  assert.equal(cleanEntryPath('./a/b.libsonnet', 'file', 'x'), 'a/b.libsonnet');
  assert.equal(cleanEntryPath('sub/..f', 'file', 'x'), 'sub/..f');
  assert.equal(cleanEntryPath('./', 'directory', 'x'), '');
});
