import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../lang/common/json.js';
import { jsonObject } from '../lang/common/json.js';
import { findObjects, removeDuplicates } from './objects.js';
import { RenderError } from './errors.js';

const cm = (name: string, extra: object = {}): JsonValue => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  ...extra,
});

test('traversal order and paths', () => {
  const value = jsonObject([
    ['zeta', cm('z')],
    ['alpha', [cm('a0'), null, { nested: cm('a2') }]],
    ['with-dash', cm('d')],
    ['local', cm('kw')],
    ['B', cm('upper')],
    ['_x1', cm('underscore')],
  ]);
  const found = findObjects(value).map((f) => [f.path, (f.object.metadata as { name: string }).name]);
  assert.deepEqual(found, [
    ['$.B', 'upper'],
    ['$._x1', 'underscore'],
    ['$.alpha[0]', 'a0'],
    ['$.alpha[2].nested', 'a2'],
    ['$["local"]', 'kw'],
    ['$["with-dash"]', 'd'],
    ['$.zeta', 'z'],
  ]);
});

test('an object with kind and apiVersion is not searched further', () => {
  const value = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { inner: cm('hidden') } } as JsonValue;
  assert.equal(findObjects(value).length, 1);
});

test('null kind or apiVersion does not make an object', () => {
  const value = { kind: null, x: cm('inner') } as JsonValue;
  assert.deepEqual(
    findObjects(value).map((f) => f.path),
    ['$.x'],
  );
  // ...and its fields are then searched like any others
  assert.throws(() => findObjects({ kind: null, apiVersion: 'v1' }), /at "\$.apiVersion", but instead found string/);
});

test('lists yield their items with path + .item; a list in a list stays whole', () => {
  const inner = { apiVersion: 'v1', kind: 'List', items: [cm('deep')] };
  const value = { l: { apiVersion: 'v1', kind: 'List', items: [cm('a'), cm('b'), inner] } } as JsonValue;
  const found = findObjects(value);
  assert.deepEqual(
    found.map((f) => f.path),
    ['$.l.item', '$.l.item', '$.l.item'],
  );
  assert.equal(found[2]!.object.kind, 'List');
});

test('any object with an items array counts as a list (apimachinery IsList)', () => {
  const value = { apiVersion: 'v1', kind: 'Whatever', items: [cm('a')] } as JsonValue;
  assert.deepEqual(
    findObjects(value).map((f) => f.object.kind),
    ['ConfigMap'],
  );
});

const errorCases: [string, JsonValue, string, string][] = [
  [
    'number',
    { foo: { bar: [cm('a'), 1] } },
    'Looking for kubernetes object at "$.foo.bar[1]", but instead found float64',
    'RENDER_NOT_AN_OBJECT',
  ],
  [
    'string',
    { 'a-b': 'x' },
    'Looking for kubernetes object at "$[\\"a-b\\"]", but instead found string',
    'RENDER_NOT_AN_OBJECT',
  ],
  ['bool at root', true, 'Looking for kubernetes object at "$", but instead found bool', 'RENDER_NOT_AN_OBJECT'],
  [
    'list item not an object',
    { apiVersion: 'v1', kind: 'List', items: [3] },
    'items member is not an object: map[string]interface {}',
    'RENDER_BAD_LIST',
  ],
  [
    'numeric label',
    cm('x', { metadata: { name: 'x', namespace: 'ns', labels: { a: 1 } } }),
    'labels map contains invalid (non-string) values in resource: v1/ConfigMap.ns/x',
    'RENDER_BAD_METADATA',
  ],
  [
    'annotations not a map',
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', annotations: 'x' } },
    'annotations map contains invalid (non-string) values in resource: v1/Deployment.apps./d',
    'RENDER_BAD_METADATA',
  ],
  [
    'metadata not a map',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: [1, 'a'] },
    '.metadata.annotations accessor error: [1 a] is of the type []interface {}, expected map[string]interface{}',
    'RENDER_BAD_METADATA',
  ],
];

test('errors', () => {
  for (const [name, value, message, code] of errorCases) {
    assert.throws(
      () => findObjects(value),
      (e: unknown) => e instanceof RenderError && e.message === message && e.code === code,
      name,
    );
  }
});

test('duplicates: identical ones are elided, different ones fail naming both paths', () => {
  assert.equal(findObjects({ a: cm('x'), b: cm('x') }).length, 1);
  assert.throws(
    () => findObjects({ a: cm('x'), b: cm('x', { data: { k: 'v' } }) }),
    (e: unknown) => e instanceof RenderError && e.message === 'duplicate resource ConfigMap, "", "x"\nat $.a and $.b',
  );
  // different group, same kind and name: not duplicates
  const apps = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } };
  const ext = { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'x' } };
  assert.equal(findObjects({ a: apps, b: ext }).length, 2);
  // same group, different version: duplicates
  assert.throws(
    () => findObjects({ a: apps, b: { ...apps, apiVersion: 'apps/v1beta1' } }),
    /duplicate resource Deployment.apps, "", "x"/,
  );
});

test('duplicates ignore provenance annotations', () => {
  const withProv = (path: string): JsonValue => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'x',
      annotations: { 'kubecfg.github.com/provenance-path': path, 'kubecfg.github.com/provenance-file': 'f' },
    },
  });
  const found = removeDuplicates([
    { object: withProv('$.a') as never, path: '$.a' },
    { object: withProv('$.b') as never, path: '$.b' },
  ]);
  assert.equal(found.length, 1);
});
