import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../lang/common/json.js';
import { renderDiff, subsetOfLive } from './diff.js';

test('subset keeps only the fields the config sets', () => {
  const table: Array<[string, JsonObject, JsonObject, JsonObject]> = [
    ['drops live-only fields', { a: 1 }, { a: 2, b: 3 }, { a: 2 }],
    ['nested maps', { m: { x: 1 } }, { m: { x: 1, y: 2 }, z: 1 }, { m: { x: 1 } }],
    [
      'empty config values the server omits are copied',
      { m: {}, l: [], s: '', n: 0, f: false, z: null },
      {},
      { m: {}, l: [], s: '', n: 0, f: false, z: null },
    ],
    ['non-empty values missing on the server stay missing', { a: 'x' }, {}, {}],
    [
      'lists: element-wise, extra live elements kept',
      { l: [{ a: 1 }] },
      { l: [{ a: 1, b: 2 }, { c: 3 }] },
      { l: [{ a: 1 }, { c: 3 }] },
    ],
    ['type mismatch takes the live value', { a: { x: 1 } }, { a: 'str' }, { a: 'str' }],
  ];
  for (const [what, config, live, want] of table) assert.deepEqual(subsetOfLive(config, live), want, what);
});

test('renderDiff writes kubecfg output for one object', () => {
  let out = '';
  const emit = (t: string): void => void (out += t);
  const obj: JsonObject = { kind: 'ConfigMap', data: { html: '<b>' } };
  assert.equal(renderDiff(emit, 'configmaps x', obj, obj, { strategy: 'all', omitSecrets: false }), false);
  assert.equal(out, '--- live configmaps x\n+++ config configmaps x\nconfigmaps x unchanged\n');
  out = '';
  assert.equal(
    renderDiff(emit, 'configmaps x', { kind: 'ConfigMap', data: { html: '<i>' } }, obj, {
      strategy: 'all',
      omitSecrets: false,
    }),
    true,
  );
  assert.equal(
    out,
    '--- live configmaps x\n+++ config configmaps x\n@@ -1,6 +1,6 @@\n {\n   "data": {\n-    "html": "\\u003ci\\u003e"\n+    "html": "\\u003cb\\u003e"\n   },\n   "kind": "ConfigMap"\n }\n\\ No newline at end of file\n\n',
  );
});
