// bcrypt against published $2a$ test vectors (OpenBSD / jBCrypt suites).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bcryptHash, bcryptUnbase64 } from './bcrypt.js';

const vectors: [string, string][] = [['U*U', '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW']];

for (const [password, hash] of vectors) {
  test(`bcrypt ${JSON.stringify(password)}`, () => {
    const cost = Number(hash.slice(4, 6));
    const salt = bcryptUnbase64(hash.slice(7, 29), 16);
    assert.equal(bcryptHash(new TextEncoder().encode(password), cost, salt), hash);
  });
}

test('bcrypt refuses passwords over 72 bytes', () => {
  assert.throws(() => bcryptHash(new Uint8Array(73), 4, new Uint8Array(16)), /exceeds 72 bytes/);
});
