import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../lang/common/json.js';
import { renderShow, showObjects } from './show.js';
import { RenderError } from './errors.js';

const cm = (name: string, data: object = {}): JsonValue =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }) as JsonValue;

test('files in order, provenance per file, duplicates across files elided', () => {
  const out = renderShow(
    [
      { file: 'a.jsonnet', value: { x: cm('one') } },
      { file: 'b.jsonnet', value: [cm('one'), cm('two')] },
    ],
    { format: 'yaml', showProvenance: true },
  );
  assert.equal(
    out,
    '---\napiVersion: v1\ndata: {}\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubecfg.github.com/provenance-file: a.jsonnet\n    kubecfg.github.com/provenance-path: $.x\n  name: one\n' +
      '---\napiVersion: v1\ndata: {}\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubecfg.github.com/provenance-file: b.jsonnet\n    kubecfg.github.com/provenance-path: $[1]\n  name: two\n',
  );
});

test('different objects with one identity across files fail', () => {
  assert.throws(
    () =>
      showObjects(
        [
          { file: 'a', value: cm('x', { k: '1' }) },
          { file: 'b', value: cm('x', { k: '2' }) },
        ],
        {},
      ),
    (e: unknown) => e instanceof RenderError && e.code === 'RENDER_DUPLICATE',
  );
});

test('discovery errors name the file', () => {
  assert.throws(
    () => showObjects([{ file: 'bad.jsonnet', value: { a: 1 } }], {}),
    (e: unknown) =>
      e instanceof RenderError &&
      e.message === 'error reading bad.jsonnet: Looking for kubernetes object at "$.a", but instead found float64',
  );
});

test('--reorder=server and json output', () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } };
  const out = renderShow([{ file: 'f', value: [cm('c'), ns] }], { format: 'json', reorder: 'server' });
  assert.equal(out.split('---\n').length, 2);
  assert.ok(out.startsWith('{\n  "apiVersion": "v1",\n  "kind": "Namespace"'));
});
