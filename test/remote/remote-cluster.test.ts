/**
 * Remote cluster commands: `update` and `diff` render on the remote service
 * and talk to the (test) API server from the client, with the client's own
 * KUBECONFIG; the service never sees cluster flags or credentials.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { openapiDocument } from '../kube/harness.js';
import { hasOpenssl, RemoteSandbox, type ServerHandle } from './harness.js';

const APP = (value: string): string =>
  `{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { a: '${value}' } } }\n`;

describe('remote cluster commands', { skip: hasOpenssl() ? false : 'openssl is not installed' }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let api: TestApiServer;

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-a' }]);
    srv = await sb.startServer();
    const { doc, bytes } = openapiDocument();
    api = await startTestApiServer({ openapi: doc, openapiBytes: bytes, token: 'cluster-secret-token' });
  });
  after(async () => {
    await srv?.stop();
    await api?.close();
    sb?.cleanup();
  });

  test('update and diff render remotely and reach the cluster from the client', async () => {
    const dir = sb.clientDir('cluster', { 'app.jsonnet': APP('1') });
    const kc = join(sb.dir, 'kubeconfig.yaml');
    writeFileSync(kc, api.kubeconfig());
    const env = { KUBECONFIG: kc };
    const update = await sb.runClient(
      dir,
      'team-a',
      srv.url,
      ['update', 'app.jsonnet', '--token', 'cluster-secret-token'],
      env,
    );
    assert.equal(update.code, 0, update.stderr);
    assert.match(update.stderr, /Creating configmaps default\.web/);
    writeFileSync(join(dir, 'app.jsonnet'), APP('2'));
    const diff = await sb.runClient(
      dir,
      'team-a',
      srv.url,
      ['diff', '--diff-strategy=subset', 'app.jsonnet', '--token', 'cluster-secret-token'],
      env,
    );
    assert.equal(diff.code, 10, diff.stderr);
    assert.match(diff.stdout, /^\+ {4}"a": "2"$/m);
    assert.doesNotMatch(srv.logs(), /cluster-secret-token/, 'the cluster token never reaches the service');
  });
});
