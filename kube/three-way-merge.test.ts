import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject, JsonValue } from '../lang/common/json.js';
import { openapiDocument } from '../test/kube/harness.js';
import { OpenApiSchema } from './openapi-schema.js';
import { threeWayMerge } from './three-way-merge.js';

const schema = new OpenApiSchema(openapiDocument().doc);
const deploymentSchema = { schema, kind: schema.forKind({ group: 'apps', version: 'v1', kind: 'Deployment' })! };

const podSpec = (v: JsonValue): JsonValue =>
  (((v as JsonObject)['spec'] as JsonObject)['template'] as JsonObject)['spec'] as JsonValue;
const dep = (spec: JsonObject, meta: JsonObject = {}): JsonObject => ({
  metadata: { name: 'w', ...meta },
  spec: { template: { spec } },
});

test('strategic three-way merge for built-in kinds', () => {
  const table: Array<[string, JsonObject | undefined, JsonObject, JsonObject, JsonValue]> = [
    [
      'config wins, live-only fields stay',
      dep({ containers: [{ name: 'a', image: '1' }] }),
      dep({ containers: [{ name: 'a', image: '2' }] }),
      dep({ containers: [{ name: 'a', image: '1', imagePullPolicy: 'Always' }], dnsPolicy: 'ClusterFirst' }),
      { containers: [{ name: 'a', image: '2', imagePullPolicy: 'Always' }], dnsPolicy: 'ClusterFirst' },
    ],
    [
      'element removed from config is removed, live-only element kept',
      dep({
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '1' },
        ],
      }),
      dep({ containers: [{ name: 'a', image: '1' }] }),
      dep({
        containers: [
          { name: 'a', image: '1' },
          { name: 'b', image: '1' },
          { name: 'injected', image: 'x' },
        ],
      }),
      {
        containers: [
          { name: 'a', image: '1' },
          { name: 'injected', image: 'x' },
        ],
      },
    ],
    [
      'field removed from config is removed',
      dep({ containers: [], hostNetwork: true }),
      dep({ containers: [] }),
      dep({ containers: [], hostNetwork: true, dnsPolicy: 'x' }),
      { containers: [], dnsPolicy: 'x' },
    ],
    [
      'without last-applied nothing is removed',
      undefined,
      dep({ containers: [{ name: 'a', image: '2' }] }),
      dep({ containers: [{ name: 'a', image: '1' }], hostNetwork: true }),
      { containers: [{ name: 'a', image: '2' }], hostNetwork: true },
    ],
    [
      'retainKeys drops live keys of a union the config does not set',
      dep({ containers: [], volumes: [{ name: 'v', emptyDir: {} }] }),
      dep({ containers: [], volumes: [{ name: 'v', configMap: { name: 'c' } }] }),
      dep({ containers: [], volumes: [{ name: 'v', emptyDir: {} }] }),
      { containers: [], volumes: [{ name: 'v', configMap: { name: 'c' } }] },
    ],
    [
      'null in config removes',
      undefined,
      dep({ containers: [], hostNetwork: null }),
      dep({ containers: [], hostNetwork: true }),
      { containers: [] },
    ],
  ];
  for (const [what, original, desired, live, want] of table) {
    assert.deepEqual(podSpec(threeWayMerge(original, desired, live, deploymentSchema)), want, what);
  }
});

test('scalar merge lists (finalizers) union and honour removals', () => {
  const out = threeWayMerge(
    { metadata: { finalizers: ['a', 'b'] } },
    { metadata: { finalizers: ['a'] } },
    { metadata: { finalizers: ['a', 'b', 'c'] } },
    deploymentSchema,
  );
  assert.deepEqual((out as JsonObject)['metadata'], { finalizers: ['a', 'c'] });
});

test('JSON merge for custom resources: lists replace', () => {
  const out = threeWayMerge(
    { spec: { items: [1, 2], gone: 1 } },
    { spec: { items: [3] } },
    { spec: { items: [1, 2], gone: 1, status: 'x' } },
    undefined,
  );
  assert.deepEqual(out, { spec: { items: [3], status: 'x' } });
});
