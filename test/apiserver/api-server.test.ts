import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JsonObject, JsonValue } from '../../lang/common/json.js';
import { openapiDocument } from '../kube/harness.js';
import { startTestApiServer, type TestApiServer } from './api-server.js';
import { ApiStatusError } from './status.js';

let server: TestApiServer;

before(async () => {
  const { doc, bytes } = openapiDocument();
  let n = 0;
  server = await startTestApiServer({
    openapi: doc,
    openapiBytes: bytes,
    now: () => new Date('2026-01-02T03:04:05.678Z'),
    newUid: () => `uid-${++n}`,
    intercept: (req) =>
      req.namespace === 'forbidden' ? new ApiStatusError(403, 'Forbidden', 'forbidden by test') : undefined,
  });
});
after(() => server.close());

async function call(
  method: string,
  path: string,
  body?: JsonValue,
  contentType = 'application/json',
  accept = 'application/json',
): Promise<{ status: number; body: JsonObject }> {
  const res = await fetch(server.url + path, {
    method,
    headers: { accept, ...(body !== undefined ? { 'content-type': contentType } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as JsonObject) };
}

const cm = (name: string, labels: Record<string, string> = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data: { k: 'v' },
});

test('version and discovery documents', async () => {
  const v = await call('GET', '/version');
  assert.equal(v.body['gitVersion'], 'v1.36.0');
  const api = await call('GET', '/api');
  assert.deepEqual(api.body['versions'], ['v1']);
  const apis = await call('GET', '/apis');
  const apps = (apis.body['groups'] as JsonObject[]).find((g) => g['name'] === 'apps')!;
  assert.deepEqual(apps['preferredVersion'], { groupVersion: 'apps/v1', version: 'v1' });
  const autoscaling = (apis.body['groups'] as JsonObject[]).find((g) => g['name'] === 'autoscaling')!;
  assert.equal((autoscaling['preferredVersion'] as JsonObject)['version'], 'v2');
  const appsV1 = await call('GET', '/apis/apps/v1');
  const deployments = (appsV1.body['resources'] as JsonObject[]).find((r) => r['name'] === 'deployments')!;
  assert.equal(deployments['kind'], 'Deployment');
  assert.equal(deployments['namespaced'], true);
  assert.deepEqual(deployments['shortNames'], ['deploy']);
  assert.ok((deployments['verbs'] as string[]).includes('patch'));
  const core = await call('GET', '/api/v1');
  const ns = (core.body['resources'] as JsonObject[]).find((r) => r['name'] === 'namespaces')!;
  assert.equal(ns['namespaced'], false);
  assert.equal(
    (core.body['resources'] as JsonObject[]).some((r) => String(r['name']).includes('/')),
    false,
    'no subresources',
  );
  assert.equal((await call('GET', '/apis/nope.example.com')).status, 404);
});

test('/openapi/v2 serves the document as JSON only', async () => {
  const ok = await call('GET', '/openapi/v2');
  assert.equal(ok.body['swagger'], '2.0');
  const proto = await call(
    'GET',
    '/openapi/v2',
    undefined,
    undefined,
    'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
  );
  assert.equal(proto.status, 406);
});

test('create, get, list with selectors, conflicts and metadata', async () => {
  const created = await call('POST', '/api/v1/namespaces/default/configmaps', cm('a', { app: 'x', tier: 'f' }));
  assert.equal(created.status, 201);
  const meta = created.body['metadata'] as JsonObject;
  assert.equal(meta['namespace'], 'default');
  assert.match(String(meta['uid']), /^uid-/);
  assert.equal(meta['creationTimestamp'], '2026-01-02T03:04:05Z');
  assert.equal(meta['generation'], 1);
  await call('POST', '/api/v1/namespaces/default/configmaps', cm('b', { app: 'y' }));
  await call('POST', '/api/v1/namespaces/kube-system/configmaps', cm('c', { app: 'x' }));
  assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', cm('a'))).body['reason'], 'AlreadyExists');

  const names = async (path: string): Promise<string[]> =>
    ((await call('GET', path)).body['items'] as JsonObject[]).map((i) => String((i['metadata'] as JsonObject)['name']));
  const table: Array<[string, string[]]> = [
    ['/api/v1/namespaces/default/configmaps', ['a', 'b']],
    ['/api/v1/configmaps', ['a', 'b', 'c']],
    ['/api/v1/configmaps?labelSelector=app%3Dx', ['a', 'c']],
    ['/api/v1/configmaps?labelSelector=app!%3Dx', ['b']],
    ['/api/v1/configmaps?labelSelector=app%20in%20(x%2Cy)', ['a', 'b', 'c']],
    ['/api/v1/configmaps?labelSelector=tier', ['a']],
    ['/api/v1/configmaps?labelSelector=!tier', ['b', 'c']],
    ['/api/v1/configmaps?fieldSelector=metadata.name%3Db', ['b']],
  ];
  for (const [path, want] of table) assert.deepEqual(await names(path), want, path);
  const list = await call('GET', '/api/v1/namespaces/default/configmaps');
  assert.equal(list.body['kind'], 'ConfigMapList');
  assert.equal((list.body['items'] as JsonObject[])[0]!['kind'], undefined, 'built-in list items carry no kind');
  assert.equal((await call('GET', '/api/v1/configmaps?labelSelector=a%3D(')).status, 400);

  const got = await call('GET', '/api/v1/namespaces/default/configmaps/a');
  const stale = structuredClone(got.body);
  const fresh = structuredClone(got.body);
  (fresh['data'] as JsonObject)['k'] = 'v2';
  const put = await call('PUT', '/api/v1/namespaces/default/configmaps/a', fresh);
  assert.equal(put.status, 200);
  assert.notEqual(
    (put.body['metadata'] as JsonObject)['resourceVersion'],
    (got.body['metadata'] as JsonObject)['resourceVersion'],
  );
  const conflict = await call('PUT', '/api/v1/namespaces/default/configmaps/a', stale);
  assert.equal(conflict.status, 409);
  assert.equal(conflict.body['reason'], 'Conflict');
  assert.match(String(conflict.body['message']), /the object has been modified/);
});

test('missing namespace, wrong namespace, dry run', async () => {
  const missing = await call('POST', '/api/v1/namespaces/nope/configmaps', cm('x'));
  assert.equal(missing.status, 404);
  assert.equal(missing.body['message'], 'namespaces "nope" not found');
  const wrongNs = await call('POST', '/api/v1/namespaces/default/configmaps', {
    ...cm('x'),
    metadata: { name: 'x', namespace: 'other' },
  });
  assert.equal(wrongNs.status, 400);
  const dry = await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('dry'));
  assert.equal(dry.status, 201);
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
  assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=Some', cm('dry'))).status, 400);
  const getMissing = await call('GET', '/apis/apps/v1/namespaces/default/deployments/none');
  assert.equal(getMissing.body['message'], 'deployments.apps "none" not found');
  assert.equal((await call('GET', '/api/v1/namespaces/forbidden/configmaps')).status, 403);
  const proto = await fetch(server.url + '/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
    body: 'k8s\0',
  });
  assert.equal(proto.status, 415);
});

test('generation, patches of every type', async () => {
  const dep: JsonObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: {
        spec: {
          containers: [
            { name: 'main', image: 'one' },
            { name: 'side', image: 's' },
          ],
        },
      },
    },
  };
  await call('POST', '/apis/apps/v1/namespaces/default/deployments', dep);
  const path = '/apis/apps/v1/namespaces/default/deployments/web';
  const labelOnly = await call('PATCH', path, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
  assert.equal((labelOnly.body['metadata'] as JsonObject)['generation'], 1, 'metadata change keeps generation');
  const smp = await call(
    'PATCH',
    path,
    { spec: { template: { spec: { containers: [{ name: 'main', image: 'two' }] } } } },
    'application/strategic-merge-patch+json',
  );
  assert.equal(smp.status, 200);
  assert.deepEqual(((smp.body['spec'] as JsonObject)['template'] as JsonObject)['spec'], {
    containers: [
      { name: 'main', image: 'two' },
      { name: 'side', image: 's' },
    ],
  });
  assert.equal((smp.body['metadata'] as JsonObject)['generation'], 2);
  const merge = await call(
    'PATCH',
    path,
    { spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }] } } } },
    'application/merge-patch+json',
  );
  assert.deepEqual(((merge.body['spec'] as JsonObject)['template'] as JsonObject)['spec'], {
    containers: [{ name: 'only', image: 'x' }],
  });
  const jp = await call(
    'PATCH',
    path,
    [{ op: 'add', path: '/spec/replicas', value: 3 }],
    'application/json-patch+json',
  );
  assert.equal((jp.body['spec'] as JsonObject)['replicas'], 3);
  const stalePatch = await call(
    'PATCH',
    path,
    { metadata: { resourceVersion: '1' }, spec: { replicas: 4 } },
    'application/merge-patch+json',
  );
  assert.equal(stalePatch.status, 409);
  assert.equal((await call('PATCH', path, { a: 1 }, 'application/apply-patch+yaml')).status, 415);
  assert.equal(
    (await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/none', { a: 1 }, 'application/merge-patch+json'))
      .status,
    404,
  );
});

test('delete with uid precondition, namespace deletion drops its objects', async () => {
  await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' } });
  const created = await call('POST', '/api/v1/namespaces/tmp/configmaps', cm('d'));
  const uid = String((created.body['metadata'] as JsonObject)['uid']);
  const wrong = await call('DELETE', '/api/v1/namespaces/tmp/configmaps/d', { preconditions: { uid: 'other' } });
  assert.equal(wrong.status, 409);
  assert.match(String(wrong.body['message']), /Precondition failed: UID in precondition: other/);
  const dry = await call('DELETE', '/api/v1/namespaces/tmp/configmaps/d?dryRun=All', { preconditions: { uid } });
  assert.equal(dry.status, 200);
  assert.equal((await call('GET', '/api/v1/namespaces/tmp/configmaps/d')).status, 200);
  const ok = await call('DELETE', '/api/v1/namespaces/tmp/configmaps/d', {
    preconditions: { uid },
    propagationPolicy: 'Foreground',
  });
  assert.equal(ok.body['status'], 'Success');
  assert.equal((await call('DELETE', '/api/v1/namespaces/tmp/configmaps/d')).status, 404);
  await call('POST', '/api/v1/namespaces/tmp/configmaps', cm('e'));
  await call('DELETE', '/api/v1/namespaces/tmp');
  assert.equal((await call('GET', '/api/v1/namespaces/tmp/configmaps/e')).status, 404);
});

test('CRDs add resources to discovery and are Established', async () => {
  const crd: JsonObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
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
  const created = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  const conditions = (created.body['status'] as JsonObject)['conditions'] as JsonObject[];
  assert.ok(conditions.some((c) => c['type'] === 'Established' && c['status'] === 'True'));
  const apis = await call('GET', '/apis');
  assert.ok((apis.body['groups'] as JsonObject[]).some((g) => g['name'] === 'example.com'));
  const list = await call('GET', '/apis/example.com/v1');
  assert.equal((list.body['resources'] as JsonObject[])[0]!['kind'], 'Widget');
  const w = await call('POST', '/apis/example.com/v1/namespaces/default/widgets', {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec: { size: 1 },
  });
  assert.equal(w.status, 201);
  const items = await call('GET', '/apis/example.com/v1/widgets');
  assert.equal(
    (items.body['items'] as JsonObject[])[0]!['kind'],
    'Widget',
    'custom resource list items carry their kind',
  );
  const smp = await call(
    'PATCH',
    '/apis/example.com/v1/namespaces/default/widgets/w',
    { spec: { size: 2 } },
    'application/strategic-merge-patch+json',
  );
  assert.equal(smp.status, 415);
  const bad = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    ...crd,
    metadata: { name: 'wrong' },
  });
  assert.equal(bad.status, 422);
  await call('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
  assert.equal((await call('GET', '/apis/example.com/v1')).status, 404);
  assert.equal((await call('GET', '/apis/example.com/v1/namespaces/default/widgets/w')).status, 404);
});

test('bad bodies give Status errors', async () => {
  const res = await fetch(server.url + '/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{nope',
  });
  assert.equal(res.status, 400);
  assert.equal(((await res.json()) as JsonObject)['kind'], 'Status');
  assert.equal(
    (await call('POST', '/api/v1/namespaces/default/configmaps', { kind: 'Secret', metadata: { name: 's' } })).status,
    400,
  );
  assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', { metadata: {} })).status, 422);
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps?watch=true')).status, 405);
  assert.equal((await call('GET', '/api/v1/nothings')).status, 404);
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/%zz')).status, 404);
});

test('a required bearer token is enforced', async () => {
  const { doc } = openapiDocument();
  const guarded = await startTestApiServer({ openapi: doc, token: 's3cret' });
  try {
    assert.equal((await fetch(guarded.url + '/version')).status, 401);
    assert.equal((await fetch(guarded.url + '/version', { headers: { authorization: 'Bearer s3cret' } })).status, 200);
    assert.match(guarded.kubeconfig(), /token: s3cret/);
  } finally {
    await guarded.close();
  }
});
