import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { gunzipCapped, gzipDeterministic } from './gzip.js';
import { isOciError } from './errors.js';

test('gzipDeterministic is reproducible and round-trips', async () => {
  const data = new TextEncoder().encode('local x = 1; '.repeat(500));
  const a = gzipDeterministic(data);
  assert.deepEqual(gzipDeterministic(data), a);
  assert.deepEqual(await gunzipCapped(a, 1 << 20, 't'), data);
});

test('a gzip bomb stops at the cap with a size error, not a truncation (hazard 8)', async () => {
  // 64 MiB of zeros compresses to ~64 KiB: an expansion ratio near 1000x.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  await assert.rejects(
    gunzipCapped(bomb, 1024 * 1024, 'layer'),
    (e) => isOciError(e, 'OCI_TOO_LARGE') && /1048576-byte cap/.test(e.message),
  );
});

test('non-gzip and corrupt gzip data are archive errors', async () => {
  await assert.rejects(gunzipCapped(new TextEncoder().encode('plain text, not gzip at all'), 100, 'x'), (e) =>
    isOciError(e, 'OCI_ARCHIVE'),
  );
  const good = gzipSync(Buffer.from('hello world hello world'));
  const corrupt = Buffer.from(good);
  corrupt[12] = corrupt[12]! ^ 0xff;
  corrupt[13] = corrupt[13]! ^ 0xff;
  await assert.rejects(gunzipCapped(corrupt, 1000, 'x'), (e) => isOciError(e, 'OCI_ARCHIVE'));
});
