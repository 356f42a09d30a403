// The small field cache: lookups after any number of insertions, falsy values told
// apart from absent ones, and the switch from a flat array to a Map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cachedField, withCachedField, type FieldCache } from './field-cache.js';
import type { Value } from './value.js';

const values: Value[] = [null, false, 0, '', 'x', 1.5, true];

test('every inserted name is found with its value, absent names are not', () => {
  for (const count of [0, 1, 7, 8, 9, 16, 40]) {
    let cache: FieldCache | null = null;
    for (let i = 0; i < count; i++) cache = withCachedField(cache, `f${i}`, values[i % values.length]!);
    for (let i = 0; i < count; i++)
      assert.equal(cachedField(cache, `f${i}`), values[i % values.length], `${count}/${i}`);
    assert.equal(cachedField(cache, 'absent'), undefined);
    assert.equal(cachedField(cache, `f${count}`), undefined);
  }
});

test('small caches are exact-size arrays; large ones become a Map', () => {
  let cache: FieldCache | null = null;
  for (let i = 0; i < 8; i++) {
    cache = withCachedField(cache, `f${i}`, i);
    assert.ok(Array.isArray(cache));
    assert.equal(cache.length, 2 * (i + 1));
  }
  cache = withCachedField(cache, 'f8', 8);
  assert.ok(cache instanceof Map);
  assert.equal(cache.size, 9);
});

test('a name equal in content but built separately is found', () => {
  const cache = withCachedField(null, ['na', 'me'].join(''), 'v');
  assert.equal(cachedField(cache, 'name'), 'v');
  assert.equal(cachedField(undefined, 'name'), undefined);
});
