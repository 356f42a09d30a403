import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject, JsonValue } from '../../lang/common/json.js';
import { OpenApiSchema } from '../../kube/openapi-schema.js';
import { openapiDocument } from '../kube/harness.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const schema = new OpenApiSchema(openapiDocument().doc);
const deploymentSchema = schema.forKind({ group: 'apps', version: 'v1', kind: 'Deployment' })!;

const live: JsonObject = {
  metadata: { name: 'web', finalizers: ['a'] },
  spec: {
    template: {
      spec: {
        containers: [
          { name: 'main', image: 'nginx', env: [{ name: 'A', value: '1' }] },
          { name: 'side', image: 'busybox' },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    },
  },
};

function containers(v: JsonValue): JsonValue {
  return (((v as JsonObject)['spec'] as JsonObject)['template'] as JsonObject)['spec'] as JsonValue;
}

test('strategic merge patch: merge keys, directives, replace for plain lists', () => {
  const table: Array<[string, JsonValue, JsonValue]> = [
    [
      'merge by name',
      { spec: { template: { spec: { containers: [{ name: 'side', image: 'alpine' }] } } } },
      {
        containers: [
          { name: 'main', image: 'nginx', env: [{ name: 'A', value: '1' }] },
          { name: 'side', image: 'alpine' },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    ],
    [
      'append new key, nested merge list',
      {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'main', env: [{ name: 'B', value: '2' }] },
                { name: 'new', image: 'x' },
              ],
            },
          },
        },
      },
      {
        containers: [
          {
            name: 'main',
            image: 'nginx',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
          { name: 'side', image: 'busybox' },
          { name: 'new', image: 'x' },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    ],
    [
      '$patch: delete on an element',
      { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } },
      {
        containers: [{ name: 'main', image: 'nginx', env: [{ name: 'A', value: '1' }] }],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    ],
    [
      '$patch: replace on a list',
      { spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } } } },
      { containers: [{ name: 'only', image: 'x' }], volumes: [{ name: 'v', emptyDir: {} }] },
    ],
    [
      '$patch: replace on a map',
      { spec: { template: { spec: { $patch: 'replace', containers: [{ name: 'c', image: 'y' }] } } } },
      { containers: [{ name: 'c', image: 'y' }] },
    ],
    [
      'null deletes a field',
      { spec: { template: { spec: { volumes: null } } } },
      {
        containers: [
          { name: 'main', image: 'nginx', env: [{ name: 'A', value: '1' }] },
          { name: 'side', image: 'busybox' },
        ],
      },
    ],
    [
      '$setElementOrder reorders',
      { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'main' }] } } } },
      {
        containers: [
          { name: 'side', image: 'busybox' },
          { name: 'main', image: 'nginx', env: [{ name: 'A', value: '1' }] },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    ],
  ];
  for (const [what, patch, want] of table) {
    const r = applyStrategicMergePatch(schema, deploymentSchema, live, patch);
    assert.ok(r.ok, what);
    assert.deepEqual(containers(r.value), want, what);
  }
});

test('strategic merge patch: scalar merge lists union, $deleteFromPrimitiveList, errors', () => {
  const r = applyStrategicMergePatch(schema, deploymentSchema, live, { metadata: { finalizers: ['b', 'a'] } });
  assert.ok(r.ok);
  assert.deepEqual(((r.value as JsonObject)['metadata'] as JsonObject)['finalizers'], ['a', 'b']);
  const d = applyStrategicMergePatch(schema, deploymentSchema, live, {
    metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
  });
  assert.ok(d.ok);
  assert.deepEqual(((d.value as JsonObject)['metadata'] as JsonObject)['finalizers'], []);
  const bad = applyStrategicMergePatch(schema, deploymentSchema, live, {
    spec: { template: { spec: { containers: [{ image: 'no-name' }] } } },
  });
  assert.ok(!bad.ok && bad.error.includes('merge key'));
  const badDirective = applyStrategicMergePatch(schema, deploymentSchema, live, { spec: { $patch: 'frob' } });
  assert.equal(badDirective.ok, false);
});
