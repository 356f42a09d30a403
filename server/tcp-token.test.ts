import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bearerMatches, createTokenFile } from './tcp-token.js';

describe('TCP bearer token', () => {
  it('writes 256 random bits to a 0600 file, new each time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kcfg-token-'));
    try {
      const path = join(dir, 'tcp-token');
      const a = createTokenFile(path);
      assert.match(a, /^[0-9a-f]{64}$/);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.equal(readFileSync(path, 'utf8'), a + '\n');
      assert.notEqual(createTokenFile(path), a);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const token = 'ab'.repeat(32);
  const cases: [string | undefined, boolean][] = [
    [`Bearer ${token}`, true],
    [undefined, false],
    ['', false],
    [`Bearer ${token.slice(1)}`, false],
    [`Bearer ${token}x`, false],
    [`Bearer ${'cd'.repeat(32)}`, false],
    [`bearer ${token}`, false],
    [`Basic ${token}`, false],
    ['Bearer ', false],
  ];
  for (const [header, ok] of cases)
    it(`${ok ? 'accepts' : 'refuses'} ${JSON.stringify(header)?.slice(0, 30)}`, () =>
      assert.equal(bearerMatches(header, token), ok));
});
