// HttpCache: HTTP caching rules over a scripted transport (no network): freshness from max-age,
// Age, Expires and no-cache; no-store; ETag/Last-Modified revalidation; errors never cached; one
// request for concurrent gets; the total byte cap.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshnessMs, HttpCache, parseCacheControl, type HttpFetchResponse } from './http-cache.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A transport answering from a script, recording the conditional headers of each request. */
function scripted(answers: Array<HttpFetchResponse | Error>) {
  const seen: Array<Record<string, string>> = [];
  return {
    seen,
    transport: async (_url: string, headers: Record<string, string>): Promise<HttpFetchResponse> => {
      seen.push(headers);
      const next = answers.shift();
      if (next === undefined) throw new Error('unexpected request');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const ok = (body: string, headers: Record<string, string> = {}): HttpFetchResponse => ({
  status: 200,
  headers,
  body: enc(body),
});

describe('freshness', () => {
  const cases: Array<[string, Record<string, string>, number]> = [
    ['max-age', { 'cache-control': 'max-age=60' }, 60_000],
    ['max-age less Age', { 'cache-control': 'public, max-age=60', age: '20' }, 40_000],
    ['Age beyond max-age', { 'cache-control': 'max-age=10', age: '20' }, 0],
    ['no-cache wins', { 'cache-control': 'no-cache, max-age=60' }, 0],
    ['Expires - Date', { expires: 'Wed, 02 Dec 2026 10:01:00 GMT', date: 'Wed, 02 Dec 2026 10:00:00 GMT' }, 60_000],
    ['Expires without Date', { expires: 'Wed, 02 Dec 2026 10:01:00 GMT' }, 0],
    ['bad max-age', { 'cache-control': 'max-age=abc' }, 0],
    ['nothing', {}, 0],
  ];
  for (const [name, headers, want] of cases) test(name, () => assert.equal(freshnessMs(headers), want));

  test('Cache-Control directives', () => {
    const cc = parseCacheControl('No-Store, max-age="5", private');
    assert.equal(cc.get('no-store'), '');
    assert.equal(cc.get('max-age'), '5');
    assert.ok(cc.has('private'));
  });
});

describe('HttpCache', () => {
  test('a fresh entry is served without a request; a stale one is revalidated with its validators', async () => {
    let now = 1_000_000;
    const cache = new HttpCache({ now: () => now });
    const t = scripted([
      ok('v1', { 'cache-control': 'max-age=60', etag: '"a"', 'last-modified': 'Tue, 01 Dec 2026 00:00:00 GMT' }),
      { status: 304, headers: { 'cache-control': 'max-age=60' }, body: new Uint8Array() },
    ]);
    const first = await cache.get('k', 'https://x/a', t.transport);
    assert.equal(first.status, 'ok');
    const again = await cache.get('k', 'https://x/a', t.transport);
    assert.deepEqual([again.status, again.fromCache, t.seen.length], ['ok', true, 1]);
    now += 61_000;
    const revalidated = await cache.get('k', 'https://x/a', t.transport);
    assert.equal(t.seen.length, 2);
    assert.deepEqual(t.seen[1], {
      'if-none-match': '"a"',
      'if-modified-since': 'Tue, 01 Dec 2026 00:00:00 GMT',
    });
    assert.ok(revalidated.status === 'ok' && first.status === 'ok' && revalidated.digest === first.digest);
    await cache.get('k', 'https://x/a', t.transport);
    assert.equal(t.seen.length, 2, 'the 304 renewed the lifetime');
  });

  test('a changed body after expiry gets a new digest', async () => {
    let now = 0;
    const cache = new HttpCache({ now: () => now });
    const t = scripted([ok('v1', { 'cache-control': 'max-age=1' }), ok('v2', { 'cache-control': 'max-age=1' })]);
    const a = await cache.get('k', 'u', t.transport);
    now = 5_000;
    const b = await cache.get('k', 'u', t.transport);
    assert.ok(a.status === 'ok' && b.status === 'ok');
    assert.notEqual(a.digest, b.digest);
    assert.equal(new TextDecoder().decode(b.body), 'v2');
  });

  test('no-store and responses without freshness are asked for every time', async () => {
    const cache = new HttpCache();
    const t = scripted([ok('a', { 'cache-control': 'no-store, max-age=600' }), ok('b'), ok('c')]);
    await cache.get('k', 'u', t.transport);
    await cache.get('k', 'u', t.transport);
    await cache.get('k', 'u', t.transport);
    assert.equal(t.seen.length, 3);
    assert.deepEqual(t.seen[0], {});
    assert.deepEqual(t.seen[1], {}, 'no-store kept nothing to revalidate');
  });

  const failures: Array<[string, HttpFetchResponse | Error, string]> = [
    ['404', { status: 404, headers: {}, body: new Uint8Array() }, 'not-found'],
    ['410', { status: 410, headers: {}, body: new Uint8Array() }, 'not-found'],
    ['500', { status: 500, headers: {}, body: enc('secret page') }, 'error reading content: 500 Internal Server Error'],
    ['418', { status: 418, headers: {}, body: new Uint8Array() }, 'error reading content: 418'],
    ['transport', new Error('GET https://x/: ECONNREFUSED'), 'GET https://x/: ECONNREFUSED'],
  ];
  for (const [name, answer, want] of failures) {
    test(`failure ${name} is reported and never cached`, async () => {
      const cache = new HttpCache();
      const t = scripted([answer, ok('later', { 'cache-control': 'max-age=60' })]);
      const r = await cache.get('k', 'u', t.transport);
      assert.equal(r.status === 'error' ? r.message : r.status, want);
      assert.equal((await cache.get('k', 'u', t.transport)).status, 'ok');
      assert.equal(t.seen.length, 2);
    });
  }

  test('a failed revalidation serves nothing stale', async () => {
    let now = 0;
    const cache = new HttpCache({ now: () => now });
    const t = scripted([ok('v1', { 'cache-control': 'max-age=1', etag: '"e"' }), new Error('down')]);
    await cache.get('k', 'u', t.transport);
    now = 10_000;
    assert.equal((await cache.get('k', 'u', t.transport)).status, 'error');
  });

  test('concurrent gets share one request', async () => {
    const cache = new HttpCache();
    const t = scripted([ok('x', { 'cache-control': 'max-age=60' })]);
    const all = await Promise.all([1, 2, 3].map(() => cache.get('k', 'u', t.transport)));
    assert.equal(t.seen.length, 1);
    assert.ok(all.every((r) => r.status === 'ok'));
  });

  test('the total byte cap evicts the least recently used body', async () => {
    const cache = new HttpCache({ maxTotalBytes: 4096 });
    const big = 'x'.repeat(1500);
    const t = scripted([
      ok(big, { 'cache-control': 'max-age=60' }),
      ok(big, { 'cache-control': 'max-age=60' }),
      ok(big, { 'cache-control': 'max-age=60' }),
      ok(big, { 'cache-control': 'max-age=60' }),
    ]);
    await cache.get('a', 'u', t.transport);
    await cache.get('b', 'u', t.transport);
    await cache.get('c', 'u', t.transport);
    assert.ok(cache.stats().bytes <= 4096);
    await cache.get('a', 'u', t.transport);
    assert.equal(t.seen.length, 4, 'a was evicted and fetched again');
  });
});
