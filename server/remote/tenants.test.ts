import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Tenants, TenantsError, tokenSha256Hex } from './tenants.js';

const A = 'a'.repeat(64);
const B = 'b1'.repeat(20);

test('tokens map to tenants; wrong, short, long, missing and non-Bearer tokens match nobody', () => {
  const t = Tenants.fromJson(
    JSON.stringify({
      tenants: [
        { name: 'team-a', token: A, allowCode: true },
        { name: 'team-b', tokenSha256: tokenSha256Hex(B), maxConcurrent: 3 },
      ],
    }),
    'tokens.json',
  );
  assert.equal(t.authenticate(`Bearer ${A}`)?.name, 'team-a');
  assert.equal(t.authenticate(`Bearer ${A}`)?.allowCode, true);
  assert.equal(t.authenticate(`Bearer ${B}`)?.name, 'team-b');
  assert.equal(t.authenticate(`Bearer ${B}`)?.maxConcurrent, 3);
  for (const header of [
    undefined,
    '',
    'Bearer ',
    `Bearer ${A.slice(1)}`,
    `Bearer ${A}a`,
    A,
    `Basic ${A}`,
    `Bearer ${tokenSha256Hex(B)}`,
  ])
    assert.equal(t.authenticate(header), undefined, String(header));
});

test('the tokens file is validated without echoing tokens', () => {
  const cases: [unknown, RegExp][] = [
    [{}, /expected \{"tenants"/],
    [{ tenants: [{ name: 'Bad Name', token: A }] }, /name: expected/],
    [{ tenants: [{ name: 'x', token: 'short-secret-value' }] }, /at least 32 characters/],
    [{ tenants: [{ name: 'x', token: A, tokenSha256: tokenSha256Hex(A) }] }, /exactly one of/],
    [
      {
        tenants: [
          { name: 'x', token: A },
          { name: 'y', token: A },
        ],
      },
      /share a token/,
    ],
    [
      {
        tenants: [
          { name: 'x', token: A },
          { name: 'x', token: B },
        ],
      },
      /listed twice/,
    ],
    [{ tenants: [{ name: 'x', token: A, extra: 1 }] }, /extra: unknown field/],
    [{ tenants: [{ name: 'x', token: A, importHosts: [1] }] }, /importHosts/],
  ];
  for (const [doc, why] of cases) {
    assert.throws(
      () => Tenants.fromJson(JSON.stringify(doc), 'f'),
      (err: Error) => {
        assert.ok(err instanceof TenantsError);
        assert.match(err.message, why);
        assert.doesNotMatch(err.message, /short-secret-value|aaaaaaaa/);
        return true;
      },
    );
  }
});

test('a tokens file others can read is refused (hazard 30)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kcfg-tenants-'));
  try {
    const file = join(dir, 'tokens.json');
    writeFileSync(file, JSON.stringify({ tenants: [{ name: 'x', token: A }] }));
    chmodSync(file, 0o644);
    assert.throws(() => Tenants.load(file), /mode 644: others must have no access/);
    chmodSync(file, 0o600);
    assert.deepEqual(Tenants.load(file).names, ['x']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
