import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JsonObject } from '../../lang/common/json.js';
import { deleteObjects } from '../../kube/delete.js';
import { KubeError } from '../../kube/errors.js';
import { updateObjects } from '../../kube/update.js';
import { configMap, deployment, startHarness, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const ns: JsonObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'app' } };

test('deletes in reverse dependency order with Foreground propagation and the grace period', async () => {
  const objects = [
    configMap('cfg', {}, 'app'),
    ns,
    { ...deployment('web', 'nginx'), metadata: { name: 'web', namespace: 'app' } },
  ];
  await updateObjects(h.session, objects);
  const lines: string[] = [];
  const r = await deleteObjects(h.session, objects, { gracePeriodSeconds: 5, log: (l) => lines.push(l) });
  // Apply order: namespaces (cluster-scoped) 20, configmaps 50, deployments (pod spec) 100.
  assert.deepEqual(lines, [
    'Fetching schemas for 3 resources',
    'Deleting deployments app.web',
    'Deleting configmaps app.cfg',
    'Deleting namespaces app',
  ]);
  assert.deepEqual(r.deleted, ['deployments app.web', 'configmaps app.cfg', 'namespaces app']);
  const bodies = h.server.requests.filter((q) => q.method === 'DELETE').map((q) => q.body as JsonObject);
  assert.ok(bodies.every((b) => b['propagationPolicy'] === 'Foreground' && b['gracePeriodSeconds'] === 5));
});

test('objects already gone are skipped; negative grace period means the server default', async () => {
  const before = h.server.requests.length;
  const r = await deleteObjects(h.session, [configMap('never-created', {})], { gracePeriodSeconds: -1 });
  assert.deepEqual(r, { deleted: [], missing: ['configmaps never-created'] });
  const body = h.server.requests.slice(before).find((q) => q.method === 'DELETE')!.body as JsonObject;
  assert.equal(Object.hasOwn(body, 'gracePeriodSeconds'), false);
});

test('other failures stop the command naming the object', async () => {
  await assert.rejects(
    deleteObjects(h.session, [configMap('x', {})], { gracePeriodSeconds: 1.5 }),
    /whole number of seconds/,
  );
  await assert.rejects(
    deleteObjects(h.session, [{ apiVersion: 'nope/v1', kind: 'Thing', metadata: { name: 't' } }]),
    (e: unknown) => e instanceof KubeError && e.code === 'KUBE_UNKNOWN_KIND',
  );
});
