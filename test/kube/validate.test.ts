import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JsonObject } from '../../lang/common/json.js';
import { updateObjects } from '../../kube/update.js';
import { validateObjects } from '../../kube/validate.js';
import { configMap, deployment, startHarness, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('valid objects pass', async () => {
  const r = await validateObjects(h.session, [deployment('web', 'nginx'), configMap('c', { a: 'b' })]);
  assert.deepEqual(r, { ok: true, problems: [], skipped: [] });
});

test('problems name the object and the field path', async () => {
  const bad: JsonObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'c', namespace: 'ns' },
    data: { a: 1 },
    extra: true,
  };
  const lines: string[] = [];
  const r = await validateObjects(h.session, [bad, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }], {
    log: (l) => lines.push(l),
  });
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.problems.map((p) => `${p.object} | ${p.path} | ${p.message}`),
    [
      // kube-openapi's wording: the path starts at VERSION.KIND; a map's values are typed by the map's path.
      'configmaps ns.c | v1.ConfigMap.data.a | ValidationError(v1.ConfigMap.data.a): invalid type for io.k8s.api.core.v1.ConfigMap.data: got "integer", expected "string"',
      'configmaps ns.c | v1.ConfigMap | ValidationError(v1.ConfigMap): unknown field "extra" in io.k8s.api.core.v1.ConfigMap',
      'configmaps  | v1.ConfigMap.metadata.name | An Object does not have a name set',
    ],
  );
  assert.ok(lines.includes('Validating configmaps ns.c'));
  assert.ok(lines.some((l) => l.startsWith('Error in configmaps ns.c: ValidationError(v1.ConfigMap.data.a)')));
});

test('custom resources known to discovery are skipped; unknown kinds fail unless ignored', async () => {
  await updateObjects(h.session, [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Cluster',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    },
  ]);
  const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } };
  const known = await validateObjects(h.newSession(), [gadget]);
  assert.deepEqual(known, { ok: true, problems: [], skipped: ['gadgets g'] });
  const thing = { apiVersion: 'nope.example.com/v1', kind: 'Thing', metadata: { name: 't' } };
  const unknown = await validateObjects(h.session, [thing]);
  assert.equal(unknown.ok, false);
  assert.equal(
    unknown.problems[0]!.message,
    'Unable to fetch schema: schema.schema "nope.example.com/v1, Kind=Thing" not found',
  );
  assert.equal(unknown.problems[0]!.object, 'thing t');
  assert.deepEqual((await validateObjects(h.session, [thing], { ignoreUnknown: true })).skipped, ['thing t']);
});
