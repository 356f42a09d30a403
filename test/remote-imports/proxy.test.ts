/**
 * http(s) imports and oci:// imports through the client's proxy variables,
 * in process (the real runCommand and RemoteInputs fetch rounds): a small
 * CONNECT proxy on loopback counts its tunnels and connects every name to
 * 127.0.0.1, so a host named `lib.test:PORT` is reached only through it.
 * The SSRF rule applies to the target of a proxied request (an IP literal
 * is checked before anything is sent), not to the proxy itself (on
 * 127.0.0.1 here, which the rule refuses for imports).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pushBundle } from '../../oci/bundle.js';
import { RegistryClient } from '../../oci/client.js';
import { parseReference } from '../../oci/reference.js';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import { RemoteInputs } from '../../server/remote-inputs/remote-fetcher.js';
import type { CommandOutcome } from '../../server/worker/messages.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';
import { startProxy, type CountingProxy } from '../support/connect-proxy.js';

const TTY = { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null };

let work: string;
let cacheDir: string;
let web: Server;
let port: number;
let proxy: CountingProxy;
const served: string[] = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'kubecfg-proxy-imports-'));
  cacheDir = mkdtempSync(join(tmpdir(), 'kubecfg-proxy-cache-'));
  web = createServer((req, res) => {
    served.push(req.url ?? '');
    if (req.url === '/lib.libsonnet') return void res.writeHead(200).end("{ name: 'via-proxy' }");
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  port = (web.address() as AddressInfo).port;
  proxy = await startProxy();
});
after(async () => {
  await proxy.close();
  web.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

async function show(
  args: string[],
  env: Record<string, string>,
  flags: Record<string, FlagValue> = {},
): Promise<CommandOutcome> {
  const params = { requestId: 'r', args, flags, cwd: work, env, tty: TTY } as CommandParams;
  const remote = new RemoteInputs({ cacheDir });
  try {
    return await remote.run(async (snapshot) =>
      runCommand('show', params, { shouldStop: () => false, testHooks: false, remote: snapshot }),
    );
  } finally {
    await remote.close();
  }
}

const cm = (name: string): string => `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ${name} } }`;

describe('http(s) imports through a proxy', () => {
  const cases: {
    name: string;
    url: () => string;
    env: () => Record<string, string>;
    flags?: Record<string, FlagValue>;
    tunnels: () => string[];
    ok?: RegExp;
    error?: RegExp;
  }[] = [
    {
      name: 'HTTP_PROXY carries a named host (resolved by the proxy, not here)',
      url: () => `http://lib.test:${port}/lib.libsonnet`,
      env: () => ({ HTTP_PROXY: proxy.url }),
      tunnels: () => [`lib.test:${port}`],
      ok: /name: via-proxy/,
    },
    {
      name: 'lower-case http_proxy, and a value without a scheme is an http proxy',
      url: () => `http://lib.test:${port}/lib.libsonnet`,
      env: () => ({ http_proxy: proxy.url.replace('http://', '') }),
      tunnels: () => [`lib.test:${port}`],
      ok: /name: via-proxy/,
    },
    {
      name: 'NO_PROXY sends it direct (and lib.test resolves nowhere)',
      url: () => `http://lib.test:${port}/lib.libsonnet`,
      env: () => ({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.org,.test' }),
      tunnels: () => [],
      error: /GET http:\/\/lib\.test:\d+\/lib\.libsonnet: (ENOTFOUND|EAI_AGAIN)/,
    },
    {
      name: 'HTTPS_PROXY does not apply to an http URL (Go has no fallback between them)',
      url: () => `http://lib.test:${port}/lib.libsonnet`,
      env: () => ({ HTTPS_PROXY: proxy.url }),
      tunnels: () => [],
      error: /(ENOTFOUND|EAI_AGAIN)/,
    },
    {
      name: 'the SSRF rule applies to the target: a private address is refused before the proxy is asked',
      url: () => `http://10.255.255.1:${port}/lib.libsonnet`,
      env: () => ({ HTTP_PROXY: proxy.url }),
      tunnels: () => [],
      error:
        /refused: 10\.255\.255\.1 is a private address; imports may reach it only if allowed with --allow-import-host 10\.255\.255\.1/,
    },
    {
      name: 'a loopback target is never proxied and stays under the rule (allowed here by the flag)',
      url: () => `http://127.0.0.1:${port}/lib.libsonnet`,
      env: () => ({ HTTP_PROXY: proxy.url }),
      flags: { 'allow-import-host': ['127.0.0.1'] },
      tunnels: () => [],
      ok: /name: via-proxy/,
    },
    {
      name: 'a socks5 proxy is refused by name, not bypassed',
      url: () => `http://lib.test:${port}/lib.libsonnet`,
      env: () => ({ HTTP_PROXY: 'socks5://127.0.0.1:1080' }),
      tunnels: () => [],
      error: /HTTP_PROXY: proxy scheme socks5 is not supported \(use http:\/\/ or https:\/\/\)/,
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      // A file per case: the HTTP cache is per RemoteInputs, and each case gets a fresh one anyway.
      writeFileSync(join(work, `app${i}.jsonnet`), `${cm(`(import '${c.url()}').name`)}\n`);
      const before = proxy.tunnels.length;
      const r = await show([`app${i}.jsonnet`], c.env(), c.flags);
      if (c.ok) {
        assert.equal(r.exitCode, 0, r.stderr);
        assert.match(r.stdout, c.ok);
      } else {
        assert.equal(r.exitCode, 1, r.stdout);
        assert.match(r.stderr, c.error!);
      }
      assert.deepEqual(proxy.tunnels.slice(before), c.tunnels());
    });
  }
});

describe('oci:// imports through a proxy', { skip: registrySkipReason() ?? false, timeout: 60_000 }, () => {
  let reg: TestRegistry;
  before(async () => {
    reg = await startTestRegistry();
    const client = new RegistryClient({ insecureRegistries: [reg.host] });
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    try {
      await pushBundle(client, parseReference(`${reg.host}/libs/app:v1`), {
        files: new Map([['app.jsonnet', enc(cm("'from-bundle'"))]]),
        entrypoint: 'app.jsonnet',
        kubecfgVersion: 'v0.40.0-ts',
        features: [],
      });
    } finally {
      await client.close();
    }
  });
  after(async () => {
    await reg?.stop();
  });

  it('HTTP_PROXY carries every registry request for a named registry', async () => {
    const host = `registry.test:${reg.host.split(':')[1]}`;
    const before = proxy.tunnels.length;
    const r = await show([`oci://${host}/libs/app:v1`], { HTTP_PROXY: proxy.url }, { 'insecure-registry': [host] });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: from-bundle/);
    const used = proxy.tunnels.slice(before);
    assert.ok(used.length >= 1);
    assert.ok(
      used.every((t) => t === host),
      used.join(' '),
    );
  });

  it('NO_PROXY sends it direct', async () => {
    const host = `registry.test:${reg.host.split(':')[1]}`;
    const before = proxy.tunnels.length;
    const r = await show(
      [`oci://${host}/libs/app:v1`],
      { HTTP_PROXY: proxy.url, NO_PROXY: 'registry.test' },
      { 'insecure-registry': [host] },
    );
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /registry\.test/);
    assert.equal(proxy.tunnels.length, before);
  });
});
