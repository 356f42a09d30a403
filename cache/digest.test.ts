import { test } from 'node:test';
import assert from 'node:assert/strict';
import { digestOf, stableDigest } from './digest.js';

test('digestOf is sha256 hex, strings hashed as UTF-8', () => {
  const table: Array<[Uint8Array | string, string]> = [
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [new Uint8Array([0x61, 0x62, 0x63]), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  ];
  for (const [input, want] of table) assert.equal(digestOf(input), want);
  assert.equal(digestOf('é'), digestOf(new Uint8Array([0xc3, 0xa9])));
});

test('stableDigest ignores key order and undefined members', () => {
  assert.equal(stableDigest({ a: 1, b: [true, null, 'x'] }), stableDigest({ b: [true, null, 'x'], a: 1 }));
  assert.equal(stableDigest({ a: 1, skip: undefined }), stableDigest({ a: 1 }));
  assert.notEqual(stableDigest({ a: '1' }), stableDigest({ a: 1 }));
  assert.notEqual(stableDigest(['a', 'b']), stableDigest(['b', 'a']));
  assert.notEqual(stableDigest({ file: new Uint8Array([1]) }), stableDigest({ file: new Uint8Array([2]) }));
});

test('stableDigest refuses values JSON cannot express, naming the value path', () => {
  const table: Array<[unknown, RegExp]> = [
    [{ a: { b: Number.NaN } }, /\$\.a\.b is NaN/],
    [{ list: [1, () => 0] }, /\$\.list\[1\] is a function/],
    [{ n: 1n }, /\$\.n is a bigint/],
  ];
  for (const [value, message] of table) assert.throws(() => stableDigest(value), message);
});
