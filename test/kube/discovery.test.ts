import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sessionFor } from '../../kube/cluster.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import { KubeError } from '../../kube/errors.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const connection = (): Parameters<typeof sessionFor>[0] => ({
  server: h.server.url,
  namespace: 'default',
  insecureSkipTlsVerify: false,
  auth: { kind: 'none' },
  identity: `${h.server.url}|t|`,
});
const discoveryRequests = (): number => h.server.requests.filter((r) => r.path === '/apis' || r.path === '/api').length;

test('resources map kinds to plural, scope and preferred versions', async () => {
  const d = h.session.discovery;
  assert.deepEqual(await d.resourceFor('apps/v1', 'Deployment'), {
    group: 'apps',
    version: 'v1',
    plural: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update'],
  });
  assert.equal((await d.resourceFor('v1', 'Namespace')).namespaced, false);
  const hpa = (await d.preferredResources()).filter((r) => r.plural === 'horizontalpodautoscalers');
  assert.deepEqual(
    hpa.map((r) => r.version),
    ['v2'],
  );
  assert.equal(
    (await d.resourceFor('autoscaling/v1', 'HorizontalPodAutoscaler')).version,
    'v1',
    'non-preferred versions resolve too',
  );
});

test('an unknown kind refreshes once, so a CRD created meanwhile is found', async () => {
  const d = h.session.discovery;
  await assert.rejects(
    d.resourceFor('example.com/v1', 'Late'),
    (e: unknown) => e instanceof KubeError && e.code === 'KUBE_UNKNOWN_KIND',
  );
  h.server.store.create(
    h.server.store.find('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!,
    undefined,
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'lates.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'lates', kind: 'Late' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    },
    false,
  );
  assert.equal((await d.resourceFor('example.com/v1', 'Late')).plural, 'lates');
});

test('one cache per cluster identity is shared across sessions and expires after its TTL', async () => {
  let now = 0;
  const cache = new DiscoveryCache({ ttlMs: 1000, now: () => now });
  const first = sessionFor(connection(), { cache });
  await first.discovery.resourceFor('v1', 'ConfigMap');
  const afterFirst = discoveryRequests();
  const second = sessionFor(connection(), { cache });
  await second.discovery.resourceFor('v1', 'ConfigMap');
  assert.equal(discoveryRequests(), afterFirst, 'second session reuses the cache');
  now = 5000;
  await second.discovery.resourceFor('v1', 'ConfigMap');
  assert.ok(discoveryRequests() > afterFirst, 'expired snapshot is fetched again');
  first.close();
  second.close();
});
