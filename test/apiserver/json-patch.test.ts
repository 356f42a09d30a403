import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../lang/common/json.js';
import { applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './json-merge-patch.js';

test('RFC 6902 operations', () => {
  const doc: JsonValue = { a: { b: [1, 2, 3] }, 'x/y': 1, 't~': 2 };
  const table: Array<[JsonValue, JsonValue]> = [
    [[{ op: 'add', path: '/a/b/1', value: 9 }], { a: { b: [1, 9, 2, 3] }, 'x/y': 1, 't~': 2 }],
    [[{ op: 'add', path: '/a/b/-', value: 4 }], { a: { b: [1, 2, 3, 4] }, 'x/y': 1, 't~': 2 }],
    [[{ op: 'remove', path: '/x~1y' }], { a: { b: [1, 2, 3] }, 't~': 2 }],
    [[{ op: 'replace', path: '/t~0', value: 5 }], { a: { b: [1, 2, 3] }, 'x/y': 1, 't~': 5 }],
    [[{ op: 'move', from: '/a/b', path: '/c' }], { a: {}, c: [1, 2, 3], 'x/y': 1, 't~': 2 }],
    [[{ op: 'copy', from: '/a/b/0', path: '/d' }], { a: { b: [1, 2, 3] }, d: 1, 'x/y': 1, 't~': 2 }],
    [[{ op: 'test', path: '/a/b/2', value: 3 }], doc],
  ];
  for (const [ops, want] of table) {
    const r = applyJsonPatch(doc, ops);
    assert.ok(r.ok, JSON.stringify(ops));
    assert.deepEqual(r.value, want);
  }
  assert.deepEqual(doc, { a: { b: [1, 2, 3] }, 'x/y': 1, 't~': 2 }, 'input untouched');
});

test('JSON patch failures are reported with the operation index', () => {
  const table: JsonValue[] = [
    [{ op: 'test', path: '/a', value: 2 }],
    [{ op: 'remove', path: '/nope' }],
    [{ op: 'replace', path: '/nope', value: 1 }],
    [{ op: 'add', path: '/a/b/9', value: 1 }],
    [{ op: 'frob', path: '/a' }],
    [{ op: 'add', path: 'a', value: 1 }],
    { op: 'add' },
  ];
  for (const ops of table) {
    const r = applyJsonPatch({ a: { b: [] } }, ops);
    assert.equal(r.ok, false, JSON.stringify(ops));
  }
  const r = applyJsonPatch({ a: 1 }, [
    { op: 'test', path: '/a', value: 1 },
    { op: 'remove', path: '/zz' },
  ]);
  assert.ok(!r.ok && r.error.includes('operation 1'));
});

test('RFC 7386 merge patch', () => {
  const table: Array<[JsonValue, JsonValue, JsonValue]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, want] of table) assert.deepEqual(applyMergePatch(target, patch), want);
});
