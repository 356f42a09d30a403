/**
 * --qps-limit and --disable-compression in the REST client, against the
 * test API server (which records each request's Accept-Encoding and, as
 * kube-apiserver, gzips answers of 128 KiB or more when asked): the buckets
 * run on a fake clock, so waits are counted, never timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ResolvedConnection } from '../../kube/connection.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import type { LimiterClock } from '../../kube/rate-limiter.js';
import { KubeClient } from '../../kube/rest-client.js';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { openapiDocument } from './harness.js';

function fakeClock(): LimiterClock & { slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return { slept, now: () => t, sleep: async (ms) => void (slept.push(ms), (t += ms)) };
}

let server: TestApiServer;
before(async () => {
  const { doc, bytes } = openapiDocument();
  server = await startTestApiServer({ openapi: doc, openapiBytes: bytes });
});
after(() => server.close());

function connection(extra: Partial<ResolvedConnection> = {}): ResolvedConnection {
  return {
    server: server.url,
    namespace: 'default',
    insecureSkipTlsVerify: false,
    auth: { kind: 'none' },
    identity: server.url,
    ...extra,
  };
}

describe('client-side rate limiting (--qps-limit)', () => {
  const cases: { name: string; qps?: number; waits: number[] }[] = [
    { name: 'default: burst 10, then 5 per second', waits: [200, 200, 200, 200, 200] },
    { name: '--qps-limit 0 is the default', qps: 0, waits: [200, 200, 200, 200, 200] },
    { name: '--qps-limit 2', qps: 2, waits: [500, 500, 500, 500, 500] },
    { name: '--qps-limit -1 disables the limiter', qps: -1, waits: [] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const clock = fakeClock();
      const client = new KubeClient(connection(), {
        ...(c.qps !== undefined ? { qps: c.qps } : {}),
        limiterClock: clock,
      });
      try {
        const before = server.requests.length;
        for (let i = 0; i < 15; i++) await client.request('GET', '/api/v1/namespaces/default/configmaps');
        assert.equal(server.requests.length - before, 15);
        assert.deepEqual(clock.slept, c.waits);
      } finally {
        client.close();
      }
    });
  }

  it('discovery has its own bucket with burst 300, so it never delays object requests', async () => {
    const clock = fakeClock();
    const client = new KubeClient(connection(), { limiterClock: clock });
    try {
      const discovery = new DiscoveryCache().for(client);
      for (let i = 0; i < 3; i++) {
        discovery.invalidate();
        await discovery.resourceFor('v1', 'ConfigMap');
      }
      assert.deepEqual(clock.slept, []);
      for (let i = 0; i < 10; i++) await client.request('GET', '/api/v1/namespaces/default/configmaps');
      assert.deepEqual(clock.slept, [], 'the object bucket is still full after discovery');
    } finally {
      client.close();
    }
  });
});

describe('response compression (--disable-compression)', () => {
  it('asks for gzip and decodes a compressed answer (the OpenAPI document is over 128 KiB)', async () => {
    const client = new KubeClient(connection(), { qps: -1 });
    try {
      const before = server.requests.length;
      const doc = (await client.request('GET', '/openapi/v2')) as { swagger?: string; definitions?: object };
      assert.equal(doc.swagger, '2.0');
      assert.ok(Object.keys(doc.definitions ?? {}).length > 100);
      assert.deepEqual(
        server.requests.slice(before).map((r) => r.acceptEncoding),
        ['gzip'],
      );
    } finally {
      client.close();
    }
  });

  it('disableCompression sends no Accept-Encoding and gets the plain document', async () => {
    const client = new KubeClient(connection({ disableCompression: true }), { qps: -1 });
    try {
      const before = server.requests.length;
      const doc = (await client.request('GET', '/openapi/v2')) as { swagger?: string };
      assert.equal(doc.swagger, '2.0');
      assert.deepEqual(
        server.requests.slice(before).map((r) => r.acceptEncoding),
        [undefined],
      );
    } finally {
      client.close();
    }
  });
});
