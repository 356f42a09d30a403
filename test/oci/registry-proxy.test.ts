/**
 * Registries through the client's proxy variables: a push to a registry
 * named `registry.test:PORT` goes through HTTP_PROXY (the name resolves
 * nowhere else), NO_PROXY sends it direct, and a loopback registry is never
 * proxied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RegistryClient } from '../../oci/client.js';
import { startProxy, type CountingProxy } from '../support/connect-proxy.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from './registry-fixture.js';

const skip = registrySkipReason();

describe('registries through a proxy', { skip: skip ?? false, timeout: 60_000 }, () => {
  let reg: TestRegistry;
  let proxy: CountingProxy;
  before(async () => {
    reg = await startTestRegistry();
    proxy = await startProxy();
  });
  after(async () => {
    await proxy.close();
    await reg.stop();
  });

  const port = (): string => reg.host.split(':')[1]!;
  const cases: { name: string; host: () => string; env: () => Record<string, string>; proxied: boolean }[] = [
    {
      name: 'HTTP_PROXY carries a named registry',
      host: () => `registry.test:${port()}`,
      env: () => ({ HTTP_PROXY: proxy.url }),
      proxied: true,
    },
    {
      name: 'a loopback registry is not proxied',
      host: () => reg.host,
      env: () => ({ http_proxy: proxy.url }),
      proxied: false,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const before = proxy.tunnels.length;
      const client = new RegistryClient({ insecureRegistries: [c.host()], proxyEnv: c.env() });
      try {
        const pushed = await client.pushBlob(
          { registry: c.host(), repository: 'proxy/app' },
          new TextEncoder().encode(c.name),
        );
        assert.match(pushed.digest, /^sha256:/);
      } finally {
        await client.close();
      }
      const used = proxy.tunnels.slice(before);
      if (c.proxied) {
        assert.ok(used.length >= 1);
        assert.ok(used.every((t) => t === c.host()));
      } else assert.deepEqual(used, []);
    });
  }

  it('NO_PROXY sends a named registry direct (where the name does not resolve)', async () => {
    const before = proxy.tunnels.length;
    const host = `registry.test:${port()}`;
    const client = new RegistryClient({
      insecureRegistries: [host],
      proxyEnv: { HTTP_PROXY: proxy.url, NO_PROXY: 'registry.test' },
      retry: { attempts: 1 },
    });
    try {
      await assert.rejects(client.pushBlob({ registry: host, repository: 'proxy/app' }, new TextEncoder().encode('x')));
    } finally {
      await client.close();
    }
    assert.equal(proxy.tunnels.length, before);
  });
});
