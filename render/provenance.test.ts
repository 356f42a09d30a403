import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addProvenance } from './provenance.js';
import type { JsonObject } from '../lang/common/json.js';

test('adds file and path annotations without touching the input', () => {
  const object = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'x', annotations: { keep: 'me' } },
  } as JsonObject;
  const out = addProvenance({ object, path: '$.a["b-c"][0]' }, 'dir/code.jsonnet');
  assert.deepEqual(out.metadata, {
    name: 'x',
    annotations: {
      keep: 'me',
      'kubecfg.github.com/provenance-file': 'dir/code.jsonnet',
      'kubecfg.github.com/provenance-path': '$.a["b-c"][0]',
    },
  });
  assert.deepEqual(object.metadata, { name: 'x', annotations: { keep: 'me' } });
});

test('creates metadata; omits the file annotation for an empty file', () => {
  const out = addProvenance({ object: { apiVersion: 'v1', kind: 'X' }, path: '$' }, '');
  assert.deepEqual(out.metadata, { annotations: { 'kubecfg.github.com/provenance-path': '$' } });
});

test('metadata: null is left alone, as apimachinery fails to set the field', () => {
  const object = { apiVersion: 'v1', kind: 'X', metadata: null } as JsonObject;
  assert.equal(addProvenance({ object, path: '$' }, 'f'), object);
});
