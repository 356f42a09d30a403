import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveConnection, type ConnectionEnvironment } from './connection.js';
import { KubeError } from './errors.js';

function env(files: Record<string, string>, vars: Record<string, string> = {}): ConnectionEnvironment {
  return { env: vars, home: '/home/u', files: { read: (p) => files[p] }, serviceAccountDir: '/sa' };
}

const first = `
apiVersion: v1
kind: Config
current-context: one
clusters:
- name: c1
  cluster: {server: 'https://one.example:6443', certificate-authority: ca.pem}
- name: shared
  cluster: {server: 'https://first-wins.example'}
users:
- name: u1
  user: {token: t1}
- name: certs
  user: {client-certificate: certs/c.pem, client-key: /abs/k.pem}
contexts:
- name: one
  context: {cluster: c1, user: u1, namespace: team}
- name: shared-ctx
  context: {cluster: shared, user: certs}
`;
const second = `
current-context: two
clusters:
- name: shared
  cluster: {server: 'https://second-loses.example'}
- name: c2
  cluster: {server: 'http://two.example/', insecure-skip-tls-verify: true}
users:
- name: u2
  user: {username: admin, password: pw}
contexts:
- name: two
  context: {cluster: c2, user: u2}
`;
const files = {
  '/cfg/a': first,
  '/cfg/b': second,
  '/cfg/ca.pem': 'CA',
  '/cfg/certs/c.pem': 'CERT',
  '/abs/k.pem': 'KEY',
};

test('KUBECONFIG lists merge with first-wins and current-context from the first file', () => {
  const c = resolveConnection({}, env(files, { KUBECONFIG: '/cfg/a:/missing:/cfg/b' }));
  assert.equal(c.server, 'https://one.example:6443');
  assert.equal(c.namespace, 'team');
  assert.equal(c.ca?.toString(), 'CA', 'relative CA path resolved against its file');
  assert.deepEqual(c.auth, { kind: 'token', token: 't1' });
  const shared = resolveConnection({ context: 'shared-ctx' }, env(files, { KUBECONFIG: '/cfg/a:/cfg/b' }));
  assert.equal(shared.server, 'https://first-wins.example');
  assert.equal(shared.clientCert?.toString(), 'CERT');
  assert.equal(shared.clientKey?.toString(), 'KEY');
  assert.equal(shared.namespace, 'default');
  const swapped = resolveConnection({}, env(files, { KUBECONFIG: '/cfg/b:/cfg/a' }));
  assert.equal(swapped.contextName, 'two');
  assert.equal(swapped.server, 'http://two.example');
  assert.deepEqual(swapped.auth, { kind: 'basic', username: 'admin', password: 'pw' });
});

test('flags override the kubeconfig as kubectl flags do', () => {
  const e = env(files, { KUBECONFIG: '/cfg/a:/cfg/b' });
  const table: Array<
    [string, Parameters<typeof resolveConnection>[0], (c: ReturnType<typeof resolveConnection>) => void]
  > = [
    ['--kubeconfig beats KUBECONFIG', { kubeconfig: '/cfg/b' }, (c) => assert.equal(c.contextName, 'two')],
    ['--cluster', { cluster: 'c2' }, (c) => assert.equal(c.server, 'http://two.example')],
    ['--user', { user: 'u2' }, (c) => assert.equal(c.auth.kind, 'basic')],
    ['-n', { namespace: 'x' }, (c) => assert.equal(c.namespace, 'x')],
    ['--server', { server: 'https://other:1' }, (c) => assert.equal(c.server, 'https://other:1')],
    [
      '--token replaces credentials',
      { context: 'shared-ctx', token: 'tok' },
      (c) => {
        assert.deepEqual(c.auth, { kind: 'token', token: 'tok' });
        assert.equal(c.clientCert, undefined);
      },
    ],
    [
      '--insecure-skip-tls-verify drops the CA',
      { insecureSkipTlsVerify: true },
      (c) => {
        assert.equal(c.insecureSkipTlsVerify, true);
        assert.equal(c.ca, undefined);
      },
    ],
  ];
  for (const [what, flags, check] of table) {
    try {
      check(resolveConnection(flags, e));
    } catch (err) {
      assert.fail(`${what}: ${String(err)}`);
    }
  }
});

test('configuration errors name the entry, never credentials', () => {
  const e = env(files, { KUBECONFIG: '/cfg/a' });
  const table: Array<[Parameters<typeof resolveConnection>[0], ConnectionEnvironment, RegExp]> = [
    [{ context: 'nope' }, e, /context "nope" does not exist/],
    [{ cluster: 'nope' }, e, /cluster "nope" does not exist/],
    [{ user: 'nope' }, e, /user "nope" does not exist/],
    [{ kubeconfig: '/cfg/none' }, e, /does not exist/],
    [{}, env({ '/bad': 'clusters: [' }, { KUBECONFIG: '/bad' }), /\/bad:\d+:\d+: not valid YAML/],
    [{}, env({}), /no configuration has been provided/],
    [{ server: 'ftp://x' }, env({}), /http or https/],
  ];
  for (const [flags, environment, want] of table) {
    assert.throws(
      () => resolveConnection(flags, environment),
      (err: unknown) => err instanceof KubeError && want.test(err.message) && !err.message.includes('t1'),
    );
  }
});

test('in-cluster configuration from the service account', () => {
  const c = resolveConnection(
    {},
    env(
      { '/sa/ca.crt': 'CA', '/sa/namespace': 'apps\n' },
      { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' },
    ),
  );
  assert.equal(c.server, 'https://[fd00::1]:443');
  assert.equal(c.namespace, 'apps');
  assert.deepEqual(c.auth, { kind: 'tokenFile', path: '/sa/token' });
  assert.equal(c.ca?.toString(), 'CA');
});

test('--server alone works without any kubeconfig', () => {
  const c = resolveConnection({ server: 'http://127.0.0.1:1', token: 'x' }, env({}));
  assert.equal(c.server, 'http://127.0.0.1:1');
  assert.equal(c.namespace, 'default');
});

test('a kubeconfig is read as client-go reads it (go-yaml v2): anchors and aliases are followed', () => {
  const text = `
current-context: prod
clusters:
- name: prod
  cluster: &c {server: 'https://prod.example'}
- name: copy
  cluster: *c
users:
- name: u
  user: {token: t}
contexts:
- name: prod
  context: {cluster: copy, user: u}
`;
  const c = resolveConnection({}, env({ '/cfg/x': text }, { KUBECONFIG: '/cfg/x' }));
  assert.equal(c.server, 'https://prod.example');
});
