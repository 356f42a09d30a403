import assert from 'node:assert/strict';
import { test } from 'node:test';
import { utf8ByteLength } from './utf8.js';

test('utf8ByteLength equals the length of the UTF-8 encoding', () => {
  const cases = ['', 'abc', 'é', '€', '😀', 'a😀b', 'x\ud800', '\ud800x', '\udc00', 'ü€😀\n'];
  for (const s of cases) assert.equal(utf8ByteLength(s), Buffer.byteLength(s, 'utf8'), JSON.stringify(s));
});
