/**
 * An exec credential plugin's login prompt (written to its stderr) reaches
 * the user's terminal through the CLI, whether the command runs in the
 * daemon or in a --no-daemon child; a missing plugin's installHint too.
 */
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const PROMPT = 'To sign in, use a web browser to open https://microsoft.com/devicelogin and enter the code ABC123\n';
const APP = "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' } } }\n";

describe('exec plugin output through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  let server: TestApiServer;
  before(async () => {
    sb = new Sandbox();
    server = await startTestApiServer({ openapi: openapiDocument().doc, token: 'from-login' });
    const plugin = join(sb.work, 'login.mjs');
    writeFileSync(
      plugin,
      `#!${process.execPath}\nprocess.stderr.write(${JSON.stringify(PROMPT)});\n` +
        `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-login' } }));\n`,
    );
    chmodSync(plugin, 0o755);
    // Each file names its own user: the daemon caches discovery per server, context and user name.
    const kubeconfig = (name: string, exec: string): void =>
      writeFileSync(
        join(sb.work, name),
        [
          'apiVersion: v1',
          'kind: Config',
          'current-context: t',
          `clusters: [{name: c, cluster: {server: '${server.url}'}}]`,
          `users: [{name: ${name}, user: {exec: ${exec}}}]`,
          `contexts: [{name: t, context: {cluster: c, user: ${name}}}]`,
        ].join('\n'),
      );
    kubeconfig('login.yaml', '{apiVersion: client.authentication.k8s.io/v1, command: ./login.mjs}');
    kubeconfig(
      'missing.yaml',
      "{apiVersion: client.authentication.k8s.io/v1, command: kubelogin, installHint: 'Install kubelogin: az aks install-cli'}",
    );
    writeFileSync(join(sb.work, 'app.jsonnet'), APP);
  });
  after(async () => {
    await sb.cleanup();
    await server.close();
  });

  for (const mode of [[], ['--no-daemon']]) {
    const name = mode.length ? 'no-daemon' : 'daemon';
    it(`${name}: the plugin's prompt is on the user's stderr and its token is used`, async () => {
      const r = await sb.run([...mode, '--kubeconfig', 'login.yaml', 'validate', 'app.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.includes(PROMPT), r.stderr);
    });

    it(`${name}: a missing plugin shows its installHint`, async () => {
      const r = await sb.run([...mode, '--kubeconfig', 'missing.yaml', 'validate', 'app.jsonnet'], {
        env: { PATH: '/nonexistent' },
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /exec: executable kubelogin not found/);
      assert.match(r.stderr, /Install kubelogin: az aks install-cli/);
    });
  }
});
