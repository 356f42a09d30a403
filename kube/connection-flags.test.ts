/**
 * kubectl's connection flags beyond the kubeconfig: --as/--as-group reach the
 * test API server as impersonation headers; --certificate-authority and
 * --tls-server-name verify a TLS server whose certificate names another host;
 * --client-certificate/--client-key replace the kubeconfig's credentials;
 * kubectl's refusals (--as-group without --as, a CA file with
 * --insecure-skip-tls-verify); --request-timeout's forms.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestApiServer } from '../test/apiserver/api-server.js';
import { openapiDocument } from '../test/kube/harness.js';
import { openCluster } from './cluster.js';
import { nodeFileReader, parseRequestTimeout, resolveConnection, type ConnectionEnvironment } from './connection.js';
import { runClusterStage } from '../server/commands/cluster-stage.js';
import { DiscoveryCache } from './discovery.js';
import { KubeError } from './errors.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-connflags-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const environment: () => ConnectionEnvironment = () => ({
  env: {},
  files: nodeFileReader,
  serviceAccountDir: join(dir, 'no-sa'),
});

test('--as and --as-group are sent as Impersonate-User and one Impersonate-Group per group', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc });
  try {
    const session = openCluster(
      { server: server.url, as: 'jane', asGroups: ['dev', 'ops,eu'] },
      { environment: environment(), cache: new DiscoveryCache() },
    );
    await session.client.request('GET', '/version');
    session.close();
    const last = server.requests[server.requests.length - 1]!;
    assert.equal(last.impersonateUser, 'jane');
    assert.deepEqual(last.impersonateGroups, ['dev', 'ops,eu']);
    const plain = openCluster({ server: server.url }, { environment: environment(), cache: new DiscoveryCache() });
    await plain.client.request('GET', '/version');
    plain.close();
    assert.equal(server.requests[server.requests.length - 1]!.impersonateUser, undefined);
  } finally {
    await server.close();
  }
});

test('impersonation is part of the cache identity', () => {
  const a = resolveConnection({ server: 'http://h:1' }, environment());
  const b = resolveConnection({ server: 'http://h:1', as: 'jane' }, environment());
  assert.notEqual(a.identity, b.identity);
  assert.ok(!b.identity.includes('token'));
});

const refusals: Array<{ name: string; flags: Parameters<typeof resolveConnection>[0]; message: RegExp }> = [
  {
    name: '--as-group without --as',
    flags: { server: 'http://h:1', asGroups: ['g'] },
    message: /without impersonating a user/,
  },
  {
    name: 'a CA file with --insecure-skip-tls-verify',
    flags: { server: 'https://h:1', insecureSkipTlsVerify: true, certificateAuthority: '/x/ca.crt' },
    message: /root certificates file with the insecure flag is not allowed/,
  },
  {
    name: 'a missing --client-certificate file',
    flags: { server: 'https://h:1', clientCertificate: '/nonexistent/c.crt' },
    message: /--client-certificate file \/nonexistent\/c\.crt does not exist/,
  },
];
for (const r of refusals) {
  test(`refuses ${r.name}`, () => {
    assert.throws(
      () => resolveConnection(r.flags, environment()),
      (e: unknown) => e instanceof KubeError && r.message.test(e.message),
    );
  });
}

test('--client-certificate and --client-key replace the kubeconfig credentials', () => {
  const kubeconfig = join(dir, 'certs.kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: c',
      'clusters: [{ name: k, cluster: { server: "https://h:1" } }]',
      `users: [{ name: u, user: { client-certificate-data: ${Buffer.from('OLD-CERT').toString('base64')}, client-key-data: ${Buffer.from('OLD-KEY').toString('base64')} } }]`,
      'contexts: [{ name: c, context: { cluster: k, user: u } }]',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'new.crt'), 'NEW-CERT');
  writeFileSync(join(dir, 'new.key'), 'NEW-KEY');
  const kept = resolveConnection({ kubeconfig }, environment());
  assert.equal(kept.clientCert?.toString(), 'OLD-CERT');
  const replaced = resolveConnection(
    {
      kubeconfig,
      clientCertificate: join(dir, 'new.crt'),
      clientKey: join(dir, 'new.key'),
      tlsServerName: 'api.example',
    },
    environment(),
  );
  assert.equal(replaced.clientCert?.toString(), 'NEW-CERT');
  assert.equal(replaced.clientKey?.toString(), 'NEW-KEY');
  assert.equal(replaced.tlsServerName, 'api.example');
});

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('--certificate-authority and --tls-server-name verify a server certificate made for another name', async (t) => {
  if (!hasOpenssl()) {
    t.skip('openssl not installed');
    return;
  }
  const run = (args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=test-ca',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  ]);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=kube.test', '-keyout', 'srv.key', '-out', 'srv.csr']);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=DNS:kube.test\n');
  run([
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
    '-out',
    'srv.crt',
  ]);
  const server = await startTestApiServer({
    openapi: openapiDocument().doc,
    tls: { key: readFileSync(join(dir, 'srv.key'), 'utf8'), cert: readFileSync(join(dir, 'srv.crt'), 'utf8') },
  });
  try {
    const ca = join(dir, 'ca.crt');
    const good = openCluster(
      { server: server.url, certificateAuthority: ca, tlsServerName: 'kube.test' },
      { environment: environment(), cache: new DiscoveryCache() },
    );
    assert.equal(typeof (await good.client.request('GET', '/version')), 'object');
    good.close();
    const wrongName = openCluster(
      { server: server.url, certificateAuthority: ca },
      { environment: environment(), cache: new DiscoveryCache() },
    );
    await assert.rejects(wrongName.client.request('GET', '/version'));
    wrongName.close();
  } finally {
    await server.close();
  }
});

test('--request-timeout: seconds, Go durations, 0 for none, bad input refused', () => {
  const table: Array<[string, number | undefined]> = [
    ['0', undefined],
    ['5', 5000],
    ['500ms', 500],
    ['30s', 30_000],
    ['2m', 120_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
  ];
  for (const [input, want] of table) assert.equal(parseRequestTimeout(input), want, input);
  for (const bad of ['', 'soon', '5d', '-1s'])
    assert.throws(
      () => parseRequestTimeout(bad),
      (e: unknown) => e instanceof KubeError && /request-timeout/.test(e.message),
    );
});

test('the cluster commands pass --as, --as-group and --request-timeout from the request to kube/', async () => {
  const server = await startTestApiServer({ openapi: openapiDocument().doc });
  try {
    const kubeconfig = join(dir, 'stage.kubeconfig');
    writeFileSync(kubeconfig, server.kubeconfig({}));
    const params = {
      requestId: 'r',
      args: ['x.json'],
      flags: { kubeconfig, as: 'jane', 'as-group': ['dev'], 'request-timeout': '30s' },
      cwd: dir,
      env: {},
      tty: {
        stdoutIsTTY: false,
        stderrIsTTY: false,
        columns: 80,
        color: 'never' as const,
        noColor: true,
        forceColor: null,
      },
    };
    let stderr = '';
    const code = await runClusterStage(
      'validate',
      params,
      JSON.stringify([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: {} }]),
      { write: (s, d) => void (s === 'stderr' ? (stderr += d) : undefined) },
      new AbortController().signal,
    );
    assert.equal(code, 0, stderr);
    assert.ok(server.requests.length > 0);
    assert.ok(server.requests.every((r) => r.impersonateUser === 'jane' && r.impersonateGroups?.[0] === 'dev'));
    const bad = await runClusterStage(
      'validate',
      { ...params, flags: { ...params.flags, 'request-timeout': 'soon' } },
      '[]',
      { write: (s, d) => void (s === 'stderr' ? (stderr += d) : undefined) },
      new AbortController().signal,
    );
    assert.equal(bad, 1);
    assert.match(stderr, /invalid --request-timeout "soon"/);
  } finally {
    await server.close();
  }
});

test('credentials are part of the cache identity, digested', () => {
  const a = resolveConnection({ server: 'http://h:1', token: 'first-s3cret' }, environment());
  const b = resolveConnection({ server: 'http://h:1', token: 'second-s3cret' }, environment());
  const again = resolveConnection({ server: 'http://h:1', token: 'first-s3cret' }, environment());
  assert.notEqual(a.identity, b.identity, 'a new token under the same names is another identity');
  assert.equal(a.identity, again.identity, 'the same credentials share discovery');
  assert.ok(!a.identity.includes('s3cret') && !b.identity.includes('s3cret'));
});
