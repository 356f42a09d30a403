import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import type { JsonObject } from '../lang/common/json.js';
import { KubeError } from './errors.js';
import { ANNOTATION_LAST_APPLIED, decodeLastApplied, withLastApplied } from './last-applied.js';

test('the annotation is gzip+base64 of compact, sorted Go JSON and round-trips', () => {
  const obj: JsonObject = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'x', annotations: { [ANNOTATION_LAST_APPLIED]: 'old' } },
    data: { b: '<&>', a: '1' },
  };
  const out = withLastApplied(obj);
  const encoded = ((out['metadata'] as JsonObject)['annotations'] as JsonObject)[ANNOTATION_LAST_APPLIED] as string;
  assert.equal(
    gunzipSync(Buffer.from(encoded, 'base64')).toString(),
    '{"apiVersion":"v1","data":{"a":"1","b":"<&>"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"x"}}\n',
  );
  assert.deepEqual(decodeLastApplied(out), {
    apiVersion: 'v1',
    data: { a: '1', b: '<&>' },
    kind: 'ConfigMap',
    metadata: { annotations: {}, name: 'x' },
  });
  assert.equal((obj['metadata'] as JsonObject)['annotations'] !== undefined, true, 'input untouched');
});

test('plain JSON, kubectl fallback, absence and corruption', () => {
  const meta = (annotations: Record<string, string>): JsonObject => ({ metadata: { name: 'n', annotations } });
  assert.deepEqual(decodeLastApplied(meta({ [ANNOTATION_LAST_APPLIED]: '{"a":1}' })), { a: 1 });
  assert.deepEqual(decodeLastApplied(meta({ 'kubectl.kubernetes.io/last-applied-configuration': '{"k":1}' })), {
    k: 1,
  });
  assert.equal(
    decodeLastApplied(meta({ 'kubectl.kubernetes.io/last-applied-configuration': '{"k":1}' }), false),
    undefined,
  );
  assert.equal(decodeLastApplied(meta({})), undefined);
  assert.throws(
    () => decodeLastApplied(meta({ [ANNOTATION_LAST_APPLIED]: 'bm90IGd6aXA=' })),
    (e: unknown) => e instanceof KubeError && !e.message.includes('not gzip'),
  );
});
