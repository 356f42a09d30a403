/**
 * Cluster access through proxies and exec credential plugins, as kubectl
 * does it: HTTP(S)_PROXY / NO_PROXY from the client's environment, the
 * cluster's `proxy-url`, loopback servers never proxied by the environment;
 * a plugin's stderr (its login prompt) reaches the user, a missing plugin
 * shows its installHint. The proxy is a small CONNECT proxy on loopback that
 * counts its tunnels and resolves every host to 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openCluster } from '../../kube/cluster.js';
import { nodeFileReader, type ConnectionEnvironment } from '../../kube/connection.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import { KubeError } from '../../kube/errors.js';
import { validateObjects } from '../../kube/validate.js';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { configMap, openapiDocument } from './harness.js';
import { startProxy, type CountingProxy } from '../support/connect-proxy.js';

let dir: string;
let api: TestApiServer;
let proxy: CountingProxy;
let port: number;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-proxy-'));
  api = await startTestApiServer({ openapi: openapiDocument().doc, token: 'secret' });
  port = Number(new URL(api.url).port);
  proxy = await startProxy();
});
after(async () => {
  await proxy.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(name: string, cluster: string, user = '{token: secret}'): string {
  const file = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: t',
      `clusters: [{name: c, cluster: ${cluster}}]`,
      `users: [{name: u, user: ${user}}]`,
      'contexts: [{name: t, context: {cluster: c, user: u}}]',
    ].join('\n'),
  );
  return file;
}

const environment = (env: Record<string, string>): ConnectionEnvironment => ({
  env,
  files: nodeFileReader,
  serviceAccountDir: join(dir, 'no-sa'),
});

async function reach(file: string, env: Record<string, string>, execStderr?: (t: string) => void): Promise<void> {
  const session = openCluster(
    { kubeconfig: file },
    { environment: environment(env), cache: new DiscoveryCache(), ...(execStderr ? { execStderr } : {}) },
  );
  try {
    assert.equal((await validateObjects(session, [configMap('c', {})])).ok, true);
  } finally {
    session.close();
  }
}

describe('proxies for the cluster', () => {
  const cases: {
    name: string;
    server: () => string;
    proxyUrl?: boolean;
    env: () => Record<string, string>;
    tunnelsTo?: () => string;
    error?: RegExp;
  }[] = [
    {
      name: 'http_proxy (lowercase) carries a named server',
      server: () => `http://kube.test:${port}`,
      env: () => ({ http_proxy: proxy.url }),
      tunnelsTo: () => `kube.test:${port}`,
    },
    {
      name: 'HTTP_PROXY (uppercase) carries a named server',
      server: () => `http://kube.test:${port}`,
      env: () => ({ HTTP_PROXY: proxy.url }),
      tunnelsTo: () => `kube.test:${port}`,
    },
    {
      name: 'NO_PROXY sends the request direct (and kube.test does not resolve)',
      server: () => `http://kube.test:${port}`,
      env: () => ({ HTTP_PROXY: proxy.url, NO_PROXY: 'other.example,kube.test' }),
      error: /cannot reach the API server at http:\/\/kube\.test:\d+: (ENOTFOUND|EAI_AGAIN)/,
    },
    {
      name: 'a loopback server is never proxied by the environment (Go does the same)',
      server: () => api.url,
      env: () => ({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url }),
    },
    {
      name: "the cluster's proxy-url is used even for loopback, without any variable",
      server: () => api.url,
      proxyUrl: true,
      env: () => ({}),
      tunnelsTo: () => `127.0.0.1:${port}`,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = proxy.tunnels.length;
      const cluster = `{server: '${c.server()}'${c.proxyUrl ? `, proxy-url: '${proxy.url}'` : ''}}`;
      const file = kubeconfig('proxy', cluster);
      if (c.error !== undefined) await assert.rejects(reach(file, c.env()), c.error);
      else await reach(file, c.env());
      const used = proxy.tunnels.slice(before);
      if (c.tunnelsTo === undefined) assert.deepEqual(used, []);
      else {
        assert.ok(used.length >= 1, 'at least one tunnel');
        assert.ok(used.every((t) => t === c.tunnelsTo!()));
      }
    });
  }

  it('refuses a socks5 proxy-url by name', () => {
    const file = kubeconfig('socks', `{server: '${api.url}', proxy-url: 'socks5://127.0.0.1:1080'}`);
    assert.throws(
      () => openCluster({ kubeconfig: file }, { environment: environment({}), cache: new DiscoveryCache() }),
      (err: unknown) =>
        err instanceof KubeError &&
        err.code === 'KUBE_CONFIG' &&
        /proxy-url scheme socks5: is not supported/.test(err.message),
    );
  });
});

describe('exec credential plugins', () => {
  it("passes the plugin's stderr (a login prompt) to the user and uses its token", async () => {
    const plugin = join(dir, 'login.mjs');
    writeFileSync(
      plugin,
      `#!${process.execPath}\n` +
        `process.stderr.write('To sign in, open https://login.example/device and enter the code ABCD-EFGH\\n');\n` +
        `process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'secret' } }));\n`,
    );
    chmodSync(plugin, 0o755);
    const file = kubeconfig(
      'login',
      `{server: '${api.url}'}`,
      `{exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}}}`,
    );
    let seen = '';
    await reach(file, {}, (text) => (seen += text));
    assert.equal(seen, 'To sign in, open https://login.example/device and enter the code ABCD-EFGH\n');
  });

  it('shows the installHint when the plugin is not installed', async () => {
    const file = kubeconfig(
      'missing',
      `{server: '${api.url}'}`,
      `{exec: {apiVersion: client.authentication.k8s.io/v1, command: kubelogin-not-installed, installHint: 'Install kubelogin: https://azure.github.io/kubelogin/install.html'}}`,
    );
    await assert.rejects(reach(file, { PATH: '/nonexistent' }), (err: unknown) => {
      assert.ok(err instanceof KubeError && err.code === 'KUBE_AUTH');
      assert.match(err.message, /^exec: executable kubelogin-not-installed not found\n/);
      assert.match(err.message, /\n\nInstall kubelogin: https:\/\/azure\.github\.io\/kubelogin\/install\.html$/);
      return true;
    });
  });
});
