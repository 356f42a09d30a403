import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('hashes of the UTF-8 bytes, lower-case hex', () => {
  assert.equal(call('md5', ''), 'd41d8cd98f00b204e9800998ecf8427e');
  assert.equal(call('sha1', 'abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.equal(call('sha256', 'abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal((call('sha512', 'abc') as string).slice(0, 16), 'ddaf35a193617aba');
  assert.equal((call('sha3', '') as string).slice(0, 16), 'a69f73cca23a9ac5'); // SHA3-512
  assert.equal(call('md5', 'é'), '66ddcd97cfdeabb2f6fb8a999b4bc76f');
  assert.equal(errorOf('sha256', 1), 'Unexpected type number, expected string');
});
