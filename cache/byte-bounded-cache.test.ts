import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteBoundedCache, type RemovalReason } from './byte-bounded-cache.js';

test('evicts least recently used entries to stay within maxBytes', () => {
  const removed: Array<[string, RemovalReason]> = [];
  const cache = new ByteBoundedCache<string>({
    name: 'parse',
    maxBytes: 100,
    onRemove: (k, _v, why) => removed.push([k, why]),
  });
  cache.set('a', 'A', 40);
  cache.set('b', 'B', 40);
  assert.equal(cache.get('a'), 'A'); // a is now more recent than b
  cache.set('c', 'C', 40);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 'A');
  assert.equal(cache.get('c'), 'C');
  assert.deepEqual(removed, [['b', 'evict']]);
  assert.deepEqual(cache.stats(), {
    name: 'parse',
    entries: 2,
    bytes: 80,
    hits: 3,
    misses: 1,
    evictions: 1,
    maxBytes: 100,
  });
});

test('an entry larger than the bound is not stored and displaces nothing', () => {
  const cache = new ByteBoundedCache<string>({ name: 'x', maxBytes: 100 });
  cache.set('small', 's', 10);
  cache.set('huge', 'h', 101);
  assert.equal(cache.get('huge'), undefined);
  assert.equal(cache.get('small'), 's');
});

test('odd sizes never throw: NaN, zero, negative, fractional, infinite', () => {
  const cache = new ByteBoundedCache<number>({ name: 'x', maxBytes: 10 });
  const sizes = [Number.NaN, 0, -5, 2.5, Number.POSITIVE_INFINITY];
  sizes.forEach((size, i) => cache.set(`k${i}`, i, size));
  assert.equal(cache.get('k4'), undefined); // infinite: larger than any bound
  assert.equal(cache.get('k3'), 3);
  assert.equal(cache.stats().bytes, 1 + 1 + 1 + 3);
  assert.doesNotThrow(() =>
    new ByteBoundedCache({ name: 'unbounded', maxBytes: Number.POSITIVE_INFINITY }).set('k', 1, 1e12),
  );
});

test('undefined values, replacement and delete', () => {
  const removed: Array<[string, RemovalReason]> = [];
  const cache = new ByteBoundedCache<string | undefined>({
    name: 'x',
    maxBytes: 100,
    onRemove: (k, _v, why) => removed.push([k, why]),
  });
  cache.set('u', undefined, 1);
  assert.equal(cache.has('u'), true);
  cache.set('k', 'one', 5);
  cache.set('k', 'two', 7);
  assert.equal(cache.peek('k'), 'two');
  assert.equal(cache.stats().bytes, 8);
  cache.delete('k');
  assert.deepEqual(removed, [
    ['k', 'set'],
    ['k', 'delete'],
  ]);
  assert.deepEqual(cache.keys(), ['u']);
});
