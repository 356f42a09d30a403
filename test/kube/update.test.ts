import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../lang/common/json.js';
import { KubeError } from '../../kube/errors.js';
import { updateObjects } from '../../kube/update.js';
import { ApiStatusError } from '../apiserver/status.js';
import type { RequestInfo } from '../apiserver/api-server.js';
import { configMap, deployment, startHarness, type Harness } from './harness.js';

/** What each applied entry says, without its object reference (checked by the -o json tests). */
const descAndAction = (applied: ReadonlyArray<{ desc: string; action: string }>) =>
  applied.map(({ desc, action }) => ({ desc, action }));

const TAG = 'kubecfg.ksonnet.io/garbage-collect-tag';
const noSleep = async (): Promise<void> => undefined;

async function withHarness(
  fn: (h: Harness) => Promise<void>,
  intercept?: (h: Harness) => (req: RequestInfo) => ApiStatusError | undefined,
): Promise<void> {
  // The hook needs the harness it intercepts, so it is installed after start.
  const hook: { fn?: (req: RequestInfo) => ApiStatusError | undefined } = {};
  const h = await startHarness({ intercept: (req) => hook.fn?.(req) });
  hook.fn = intercept?.(h);
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

async function live(h: Harness, path: string): Promise<JsonObject> {
  return (await h.session.client.request('GET', path)) as JsonObject;
}

const writes = (h: Harness): string[] =>
  h.server.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

test('create, then three-way update keeps fields set by others and drops fields removed from config', async () => {
  await withHarness(async (h) => {
    const lines: string[] = [];
    const first = await updateObjects(h.session, [deployment('web', 'nginx:1', { hostNetwork: true })], {
      log: (l) => lines.push(l),
      sleep: noSleep,
    });
    assert.deepEqual(descAndAction(first.applied), [{ desc: 'deployments web', action: 'created' }]);
    const path = '/apis/apps/v1/namespaces/default/deployments/web';
    // Someone else sets a field kubecfg does not manage.
    await h.session.client.request('PATCH', path, {
      body: { spec: { template: { spec: { dnsPolicy: 'Default' } } } },
      contentType: 'application/merge-patch+json',
    });
    const second = await updateObjects(h.session, [deployment('web', 'nginx:2')], {
      log: (l) => lines.push(l),
      sleep: noSleep,
    });
    assert.deepEqual(descAndAction(second.applied), [{ desc: 'deployments web', action: 'updated' }]);
    const podSpec = (((await live(h, path))['spec'] as JsonObject)['template'] as JsonObject)['spec'] as JsonObject;
    assert.deepEqual(podSpec, { containers: [{ name: 'main', image: 'nginx:2' }], dnsPolicy: 'Default' });
    const third = await updateObjects(h.session, [deployment('web', 'nginx:2')], { sleep: noSleep });
    assert.deepEqual(descAndAction(third.applied), [{ desc: 'deployments web', action: 'unchanged' }]);
    assert.deepEqual(lines, [
      'Fetching schemas for 1 resources',
      'Creating deployments web',
      'Fetching schemas for 1 resources',
      'Updating deployments web',
    ]);
  });
});

test('creationTimestamp: null in the input (as client-go writes it) is no change', async () => {
  await withHarness(async (h) => {
    const input = (): JsonObject => {
      const cm = configMap('ts', { a: '1' });
      return { ...cm, metadata: { ...(cm['metadata'] as JsonObject), creationTimestamp: null } };
    };
    await updateObjects(h.session, [input()], { sleep: noSleep });
    const before = writes(h).length;
    const lines: string[] = [];
    const again = await updateObjects(h.session, [input()], { log: (l) => lines.push(l), sleep: noSleep });
    assert.deepEqual(descAndAction(again.applied), [{ desc: 'configmaps ts', action: 'unchanged' }]);
    assert.equal(writes(h).length, before);
    assert.deepEqual(lines, ['Fetching schemas for 1 resources']);
  });
});

test('a conflicting write is retried with a fresh read', async () => {
  let conflicts = 1;
  await withHarness(
    async (h) => {
      await updateObjects(h.session, [configMap('c', { a: '1' })], { sleep: noSleep });
      const r = await updateObjects(h.session, [configMap('c', { a: '2' })], { sleep: noSleep });
      assert.deepEqual(descAndAction(r.applied), [{ desc: 'configmaps c', action: 'updated' }]);
      assert.equal(h.server.requests.filter((q) => q.method === 'PUT').length, 2);
      assert.deepEqual((await live(h, '/api/v1/namespaces/default/configmaps/c'))['data'], { a: '2' });
    },
    () => (req) =>
      req.method === 'PUT' && conflicts-- > 0
        ? new ApiStatusError(409, 'Conflict', 'Operation cannot be fulfilled: the object has been modified')
        : undefined,
  );
});

test('dry run sends no writes and reports what it would do', async () => {
  await withHarness(async (h) => {
    await updateObjects(h.session, [configMap('old', {}), configMap('keep', { a: '1' })], {
      gcTag: 'app',
      sleep: noSleep,
    });
    const before = writes(h).length;
    const lines: string[] = [];
    const r = await updateObjects(h.session, [configMap('keep', { a: '2' }), configMap('new', {})], {
      gcTag: 'app',
      dryRun: true,
      log: (l) => lines.push(l),
      sleep: noSleep,
    });
    assert.equal(writes(h).length, before, 'no create, update or delete');
    assert.deepEqual(lines.sort(), [
      'Creating configmaps new (dry-run)',
      'Fetching schemas for 2 resources',
      'Garbage collecting configmaps default.old (v1) (dry-run)',
      'Updating configmaps keep (dry-run)',
    ]);
    const real = await updateObjects(h.session, [configMap('keep', { a: '2' }), configMap('new', {})], {
      gcTag: 'app',
      sleep: noSleep,
    });
    assert.deepEqual(real.gc?.deleted, r.gc?.deleted, 'dry run lists exactly what the real run deletes');
  });
});

test('a CRD and its custom resources in one run; custom resources merge as JSON', async () => {
  await withHarness(async (h) => {
    const crd: JsonObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    const widget = (items: number[]): JsonObject => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { items },
    });
    // The custom resource comes first in the input: dependency order puts the CRD first.
    const r = await updateObjects(h.session, [widget([1, 2]), crd], { sleep: noSleep });
    assert.deepEqual(
      r.applied.map((a) => a.desc),
      ['customresourcedefinitions widgets.example.com', 'widgets w'],
    );
    await updateObjects(h.session, [widget([3])], { sleep: noSleep });
    assert.deepEqual((await live(h, '/apis/example.com/v1/namespaces/default/widgets/w'))['spec'], { items: [3] });
  });
});

test('gc deletes only stale objects carrying our tag, each with a UID precondition', async () => {
  await withHarness(async (h) => {
    const store = h.server.store;
    const cms = store.find('', 'v1', 'configmaps')!;
    const tagged = (name: string, tag: string, extra: JsonObject = {}): JsonObject => ({
      ...configMap(name, {}),
      metadata: { name, labels: { [TAG]: tag }, ...extra },
    });
    await updateObjects(h.session, [configMap('stale', {}), configMap('kept', {})], { gcTag: 'mine', sleep: noSleep });
    store.create(cms, 'default', configMap('tagless', {}), false);
    store.create(cms, 'default', tagged('other-tag', 'theirs'), false);
    store.create(
      cms,
      'default',
      tagged('ignored', 'mine', { annotations: { 'kubecfg.ksonnet.io/garbage-collect-strategy': 'ignore' } }),
      false,
    );
    store.create(
      cms,
      'default',
      tagged('owned', 'mine', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'o', controller: true }],
      }),
      false,
    );
    // kubecfg's eligibleForGc: only a controller reference protects an object.
    store.create(
      cms,
      'default',
      tagged('owned-no-controller', 'mine', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'o', controller: false }],
      }),
      false,
    );
    const r = await updateObjects(h.session, [configMap('kept', {})], { gcTag: 'mine', sleep: noSleep });
    assert.deepEqual(r.gc?.deleted, ['configmaps default.owned-no-controller (v1)', 'configmaps default.stale (v1)']);
    const remaining = (
      ((await h.session.client.request('GET', '/api/v1/namespaces/default/configmaps')) as JsonObject)[
        'items'
      ] as JsonObject[]
    ).map((i) => (i['metadata'] as JsonObject)['name']);
    assert.deepEqual(remaining, ['ignored', 'kept', 'other-tag', 'owned', 'tagless']);
    const deletes = h.server.requests.filter((q) => q.method === 'DELETE');
    assert.equal(deletes.length, 2);
    assert.match(String(((deletes[0]!.body as JsonObject)['preconditions'] as JsonObject)['uid']), /^0000/);
    const skipped = await updateObjects(h.session, [], { gcTag: 'mine', skipGc: true, sleep: noSleep });
    assert.equal(skipped.gc, undefined);
  });
});

test('gc keeps an object whose UID changed between list and delete', async () => {
  let recreate: (() => void) | undefined;
  await withHarness(
    async (h) => {
      await updateObjects(h.session, [configMap('racy', {})], { gcTag: 'mine', sleep: noSleep });
      const cms = h.server.store.find('', 'v1', 'configmaps')!;
      recreate = () => {
        recreate = undefined;
        const old = h.server.store.get(cms, 'default', 'racy');
        h.server.store.delete(cms, 'default', 'racy', {}, false);
        h.server.store.create(
          cms,
          'default',
          { ...old, metadata: { name: 'racy', labels: (old['metadata'] as JsonObject)['labels']! } },
          false,
        );
      };
      const r = await updateObjects(h.session, [], { gcTag: 'mine', sleep: noSleep });
      assert.deepEqual(r.gc?.deleted, []);
      assert.equal(
        h.server.requests.some((q) => q.method === 'DELETE'),
        false,
      );
      assert.equal(r.gc?.kept.length, 1);
    },
    () => (req) => {
      if (req.method === 'GET' && req.name === 'racy' && recreate !== undefined) recreate();
      return undefined;
    },
  );
});

test('gc does not delete what it cannot verify, and reports it', async () => {
  let forbid = false;
  await withHarness(
    async (h) => {
      await updateObjects(h.session, [configMap('secretive', {}), configMap('plain', {})], {
        gcTag: 'mine',
        sleep: noSleep,
      });
      forbid = true;
      const lines: string[] = [];
      const r = await updateObjects(h.session, [], { gcTag: 'mine', log: (l) => lines.push(l), sleep: noSleep });
      assert.deepEqual(r.gc?.deleted, ['configmaps default.plain (v1)']);
      assert.deepEqual(
        r.gc?.unverifiable.map((u) => u.desc),
        ['configmaps default.secretive (v1)'],
      );
      assert.ok(
        lines.some((l) =>
          l.startsWith('Not garbage collecting configmaps default.secretive (v1): ownership cannot be verified'),
        ),
      );
    },
    () => (req) =>
      forbid && req.method === 'GET' && req.name === 'secretive'
        ? new ApiStatusError(403, 'Forbidden', 'configmaps "secretive" is forbidden')
        : undefined,
  );
});

test('gc runs only after every apply succeeded', async () => {
  await withHarness(async (h) => {
    await updateObjects(h.session, [configMap('stale', {})], { gcTag: 'mine', sleep: noSleep });
    await assert.rejects(
      updateObjects(h.session, [configMap('fine', {}), configMap('broken', {}, 'no-such-namespace')], {
        gcTag: 'mine',
        sleep: noSleep,
      }),
      (e: unknown) =>
        e instanceof KubeError &&
        /^Error updating configmaps no-such-namespace.broken: namespaces "no-such-namespace" not found/.test(e.message),
    );
    assert.equal(
      h.server.requests.some((q) => q.method === 'DELETE'),
      false,
    );
    await live(h, '/api/v1/namespaces/default/configmaps/stale');
  });
});

test('gc membership comes from the label across namespaces; Namespaces need confirmation', async () => {
  await withHarness(async (h) => {
    const ns = (name: string): JsonObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    await updateObjects(h.session, [ns('a'), ns('b'), configMap('x', {}, 'a'), configMap('y', {}, 'b')], {
      gcTag: 'set',
      sleep: noSleep,
    });
    const scoped = await updateObjects(h.session, [ns('b'), configMap('y', {}, 'b')], {
      gcTag: 'set',
      gcNamespace: 'b',
      sleep: noSleep,
    });
    assert.deepEqual(scoped.gc?.deleted, [], '--gc-namespace limits namespaced kinds to that namespace');
    const r = await updateObjects(h.session, [ns('b'), configMap('y', {}, 'b')], { gcTag: 'set', sleep: noSleep });
    assert.deepEqual(r.gc?.deleted, ['configmaps a.x (v1)']);
    assert.deepEqual(r.gc?.kept, [
      { desc: 'namespaces a (v1)', why: 'deleting a Namespace needs explicit confirmation' },
    ]);
    const confirmed = await updateObjects(h.session, [ns('b'), configMap('y', {}, 'b')], {
      gcTag: 'set',
      allowNamespaceGc: true,
      sleep: noSleep,
    });
    assert.deepEqual(confirmed.gc?.deleted, ['namespaces a (v1)']);
  });
});

test('gc tags can come from the input objects', async () => {
  await withHarness(async (h) => {
    const withTag = (name: string): JsonObject => ({
      ...configMap(name, {}),
      metadata: { name, labels: { [TAG]: 'from-input' } },
    });
    await updateObjects(h.session, [withTag('one'), withTag('two')], { sleep: noSleep });
    const r = await updateObjects(h.session, [withTag('one')], { gcTagsFromInput: true, sleep: noSleep });
    assert.deepEqual(r.gc?.deleted, ['configmaps default.two (v1)']);
  });
});

test('update waits for a new CRD to become Established before applying its resources', async () => {
  const crd: JsonObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural: 'gizmos', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  };
  const gizmo: JsonObject = { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g' } };
  const slow = await startHarness({ crdEstablishDelayReads: 3 });
  try {
    const sleeps: number[] = [];
    const r = await updateObjects(slow.session, [crd, gizmo], { sleep: async (ms) => void sleeps.push(ms) });
    assert.deepEqual(
      r.applied.map((a) => a.action),
      ['created', 'created'],
    );
    assert.ok(sleeps.length >= 2, 'polled while the CRD was not Established');
  } finally {
    await slow.close();
  }
  const never = await startHarness({ crdEstablishDelayReads: 1_000_000 });
  try {
    const lines: string[] = [];
    await assert.rejects(
      updateObjects(never.session, [crd, gizmo], {
        crdEstablishTimeoutMs: 300,
        sleep: noSleep,
        log: (l) => lines.push(l),
      }),
      (e: unknown) => e instanceof KubeError && e.code === 'KUBE_UNKNOWN_KIND',
    );
    assert.ok(
      lines.some((l) =>
        l.startsWith('Warning: customresourcedefinitions gizmos.example.com did not become Established'),
      ),
    );
  } finally {
    await never.close();
  }
});

test('gc after a CRD was deleted: a cached discovery answer is not trusted (daemon reuses it)', async () => {
  await withHarness(async (h) => {
    const crd: JsonObject = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gizmos.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [{ name: 'v1', served: true, storage: true }],
      },
    };
    const gizmo: JsonObject = {
      apiVersion: 'example.com/v1',
      kind: 'Gizmo',
      metadata: { name: 'g', namespace: 'default' },
    };
    await updateObjects(h.session, [crd, gizmo, configMap('c', {})], { gcTag: 'T', sleep: noSleep });
    // The session's discovery now lists gizmos; someone deletes the CRD behind its back.
    await h.session.client.request(
      'DELETE',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com',
    );
    const r = await updateObjects(h.session, [configMap('c', {})], { gcTag: 'T', sleep: noSleep });
    assert.deepEqual(descAndAction(r.applied), [{ desc: 'configmaps c', action: 'unchanged' }]);
    assert.deepEqual(r.gc?.deleted, []);
  });
});
