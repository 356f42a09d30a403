import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { JsonObject } from '../../lang/common/json.js';
import { diffObjects } from '../../kube/diff.js';
import { KubeError } from '../../kube/errors.js';
import { updateObjects } from '../../kube/update.js';
import { configMap, deployment, startHarness, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('objects missing on the server: header lines, message, exit code 10, alphabetical order', async () => {
  const r = await diffObjects(
    h.session,
    [configMap('zeta', { a: '1' }), configMap('alpha', { a: '1' }, 'kube-system')],
    { strategy: 'all', omitSecrets: false },
  );
  assert.equal(
    r.output,
    "--- live configmaps zeta\n+++ config configmaps zeta\nconfigmaps zeta doesn't exist on server\n" +
      "--- live configmaps kube-system.alpha\n+++ config configmaps kube-system.alpha\nconfigmaps kube-system.alpha doesn't exist on server\n",
  );
  assert.equal(r.exitCode, 10);
  assert.equal(
    h.server.requests.some((q) => q.method !== 'GET'),
    false,
    'diff only reads',
  );
});

test('subset: unchanged after update, then a changed field as kubecfg prints it', async () => {
  const web = deployment('web', 'nginx:1');
  await updateObjects(h.session, [web, configMap('cfg', { a: '1' })]);
  const same = await diffObjects(h.session, [web, configMap('cfg', { a: '1' })], {
    strategy: 'subset',
    omitSecrets: false,
  });
  assert.equal(
    same.output,
    '--- live configmaps cfg\n+++ config configmaps cfg\nconfigmaps cfg unchanged\n--- live deployments web\n+++ config deployments web\ndeployments web unchanged\n',
  );
  assert.equal(same.exitCode, 0);
  const changed = await diffObjects(h.session, [configMap('cfg', { a: '2' })], {
    strategy: 'subset',
    omitSecrets: false,
  });
  assert.equal(
    changed.output,
    [
      '--- live configmaps cfg',
      '+++ config configmaps cfg',
      '@@ -1,7 +1,7 @@',
      ' {',
      '   "apiVersion": "v1",',
      '   "data": {',
      '-    "a": "1"',
      '+    "a": "2"',
      '   },',
      '   "kind": "ConfigMap",',
      '   "metadata": {',
      '',
      '',
    ].join('\n'),
  );
  assert.equal(changed.exitCode, 10);
});

test('all: the whole live object, server-set fields included', async () => {
  const r = await diffObjects(h.session, [configMap('cfg', { a: '1' })], { strategy: 'all', omitSecrets: false });
  assert.equal(r.exitCode, 10);
  assert.match(r.output, /^-\s+"creationTimestamp": "2026-01-02T03:04:05Z",$/m);
  assert.match(r.output, /^-\s+"kubecfg.ksonnet.io\/last-applied-configuration": "/m);
});

test('last-applied compares against the last applied configuration', async () => {
  const r = await diffObjects(h.session, [configMap('cfg', { a: '1' })], {
    strategy: 'last-applied',
    omitSecrets: false,
  });
  assert.equal(r.output, '--- live configmaps cfg\n+++ config configmaps cfg\nconfigmaps cfg unchanged\n');
  await h.server.store.create(h.server.store.find('', 'v1', 'configmaps')!, 'default', configMap('plain', {}), false);
  await assert.rejects(
    diffObjects(h.session, [configMap('plain', {})], { strategy: 'last-applied', omitSecrets: false }),
    (e: unknown) => e instanceof KubeError && /configmaps plain: no original object annotation/.test(e.message),
  );
});

test('--omit-secrets hides Secret values and context lines', async () => {
  const secret = (v: string): JsonObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's' },
    type: 'Opaque',
    data: { password: v },
  });
  await updateObjects(h.session, [secret('aGVsbG8=')]);
  const r = await diffObjects(h.session, [secret('d29ybGQ=')], { strategy: 'subset', omitSecrets: true });
  assert.equal(
    r.output,
    '--- live secrets s\n+++ config secrets s\n@@ -1,7 +1,7 @@\n-    password: <omitted>\n+    password: <omitted>\n\n',
  );
  assert.equal(r.output.includes('aGVsbG8'), false);
  const shown = await diffObjects(h.session, [secret('d29ybGQ=')], { strategy: 'subset', omitSecrets: false });
  assert.match(shown.output, /-    "password": "aGVsbG8="/);
});

test('unknown kinds and unnamed objects are errors naming the object', async () => {
  await assert.rejects(
    diffObjects(h.session, [{ apiVersion: 'example.com/v1', kind: 'Nope', metadata: { name: 'n' } }], {
      strategy: 'all',
      omitSecrets: false,
    }),
    (e: unknown) => e instanceof KubeError && e.code === 'KUBE_UNKNOWN_KIND' && /Nope/.test(e.message),
  );
  await assert.rejects(
    diffObjects(h.session, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }], {
      strategy: 'all',
      omitSecrets: false,
    }),
    /it does not have a name set/,
  );
});
