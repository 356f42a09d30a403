import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openCluster } from '../../kube/cluster.js';
import { nodeFileReader, type ConnectionEnvironment } from '../../kube/connection.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import { KubeApiError, KubeError } from '../../kube/errors.js';
import { validateObjects } from '../../kube/validate.js';
import { startTestApiServer } from '../apiserver/api-server.js';
import { configMap, openapiDocument } from './harness.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-conn-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const environment = (env: Record<string, string> = {}): ConnectionEnvironment => ({
  env,
  files: nodeFileReader,
  serviceAccountDir: join(dir, 'no-sa'),
});

test('a kubeconfig file with a token reaches the server; a wrong --token is refused', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc, token: 'good-token' });
  try {
    const file = join(dir, 'token.kubeconfig');
    writeFileSync(file, server.kubeconfig({ namespace: 'kube-system' }));
    const session = openCluster({ kubeconfig: file }, { environment: environment(), cache: new DiscoveryCache() });
    assert.equal(session.defaultNamespace, 'kube-system');
    assert.equal((await validateObjects(session, [configMap('c', {})])).ok, true);
    session.close();
    const viaEnv = openCluster(
      { token: 'bad-token' },
      { environment: environment({ KUBECONFIG: file }), cache: new DiscoveryCache() },
    );
    await assert.rejects(
      viaEnv.client.request('GET', '/version'),
      (e: unknown) => e instanceof KubeApiError && e.status === 401 && !e.message.includes('bad-token'),
    );
    viaEnv.close();
  } finally {
    await server.close();
  }
});

test('an exec credential plugin runs once, relative to its kubeconfig, and its token is used', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc, token: 'from-plugin' });
  try {
    const counter = join(dir, 'calls');
    const plugin = join(dir, 'plugin.mjs');
    writeFileSync(
      plugin,
      `#!${process.execPath}\nimport { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(counter)}, 'x');\n` +
        `const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);\n` +
        `process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token: process.env.PLUGIN_TOKEN } }));\n`,
    );
    chmodSync(plugin, 0o755);
    const file = join(dir, 'exec.kubeconfig');
    writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: t',
        `clusters: [{name: c, cluster: {server: '${server.url}'}}]`,
        `users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ./plugin.mjs, env: [{name: PLUGIN_TOKEN, value: from-plugin}]}}}]`,
        'contexts: [{name: t, context: {cluster: c, user: u}}]',
      ].join('\n'),
    );
    const session = openCluster(
      { kubeconfig: file },
      { environment: environment({ PATH: process.env['PATH'] ?? '' }), cache: new DiscoveryCache() },
    );
    assert.equal((await validateObjects(session, [configMap('c', {})])).ok, true);
    assert.equal(readFileSync(counter, 'utf8'), 'x');
    session.close();
  } finally {
    await server.close();
  }
});

test('an unreachable server is a KUBE_UNREACHABLE error without credentials', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc });
  const url = server.url;
  await server.close();
  const session = openCluster(
    { server: url, token: 'tok-secret' },
    { environment: environment(), cache: new DiscoveryCache() },
  );
  await assert.rejects(
    session.client.request('GET', '/version'),
    (e: unknown) =>
      e instanceof KubeError &&
      e.code === 'KUBE_UNREACHABLE' &&
      e.message.includes('127.0.0.1') &&
      !e.message.includes('tok-secret'),
  );
  session.close();
});

test('HTTPS: the kubeconfig CA is trusted, an unknown CA is refused, --insecure-skip-tls-verify skips the check', async (t) => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    t.skip('openssl not installed');
    return;
  }
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=test',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const server = await startTestApiServer({
    openapi: openapiDocument().doc,
    tls: { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') },
  });
  try {
    const withCa = join(dir, 'tls.kubeconfig');
    writeFileSync(withCa, server.kubeconfig({ caData: readFileSync(cert).toString('base64') }));
    const trusted = openCluster({ kubeconfig: withCa }, { environment: environment(), cache: new DiscoveryCache() });
    assert.equal(((await trusted.client.request('GET', '/version')) as { gitVersion: string }).gitVersion, 'v1.36.0');
    trusted.close();
    const untrusted = openCluster({ server: server.url }, { environment: environment(), cache: new DiscoveryCache() });
    await assert.rejects(
      untrusted.client.request('GET', '/version'),
      (e: unknown) => e instanceof KubeError && e.code === 'KUBE_UNREACHABLE',
    );
    untrusted.close();
    const insecure = openCluster(
      { server: server.url, insecureSkipTlsVerify: true },
      { environment: environment(), cache: new DiscoveryCache() },
    );
    await insecure.client.request('GET', '/version');
    insecure.close();
  } finally {
    await server.close();
  }
});

test('an exec credential refused with 401 is fetched again once', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc, token: 'tok-2' });
  try {
    const counter = join(dir, 'rotating-calls');
    writeFileSync(counter, '');
    const plugin = join(dir, 'rotating.mjs');
    writeFileSync(
      plugin,
      `#!${process.execPath}\nimport { appendFileSync, readFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(counter)}, 'x');\n` +
        `const n = readFileSync(${JSON.stringify(counter)}, 'utf8').length;\n` +
        `process.stdout.write(JSON.stringify({ kind: 'ExecCredential', status: { token: 'tok-' + n } }));\n`,
    );
    chmodSync(plugin, 0o755);
    const file = join(dir, 'rotating.kubeconfig');
    writeFileSync(
      file,
      `clusters: [{name: c, cluster: {server: '${server.url}'}}]\nusers: [{name: u, user: {exec: {command: ${plugin}}}}]\n` +
        'contexts: [{name: t, context: {cluster: c, user: u}}]\ncurrent-context: t\n',
    );
    const session = openCluster({ kubeconfig: file }, { environment: environment(), cache: new DiscoveryCache() });
    await session.client.request('GET', '/version');
    await session.client.request('GET', '/api');
    assert.equal(readFileSync(counter, 'utf8'), 'xx', 'first token refused, second one cached');
    session.close();
  } finally {
    await server.close();
  }
});
