/**
 * Several replicas of the remote render service sharing one real
 * redis-server on loopback (issue 26): a runner that lands on another replica
 * uploads nothing and gets the cached result; tenants never share keys; the
 * same missing result asked of two replicas at once is rendered once; a blob
 * read from Redis is checked against its digest; Redis going away never
 * fails a render, and the replicas use it again when it comes back.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { getText, hasOpenssl, metricValue, RemoteSandbox, type ServerHandle } from './harness.js';
import { hasRedisServer, RedisServer } from '../support/redis-server.js';

const skip = !hasOpenssl() ? 'openssl is not installed' : !hasRedisServer() ? 'redis-server is not installed' : false;

const get = getText;

const PREFIX = 'kubecfg-remote';
/** The documented key scheme (docs/remote.md): the tenant part is a digest of the tenant's name. */
const tenantPrefix = (tenant: string): string =>
  `${PREFIX}:t:${createHash('sha256').update(tenant).digest('hex').slice(0, 32)}`;
const sha256 = (text: string): string => 'sha256:' + createHash('sha256').update(text).digest('hex');

const files = (name: string, work = 1): Record<string, string> => ({
  'app.jsonnet':
    `local lib = import 'lib.libsonnet';\n` +
    `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${name}' },\n` +
    `  data: { greeting: lib.greeting, sum: std.toString(std.foldl(function(a, b) a + b, std.range(0, ${work}), 0)) } }\n`,
  'lib.libsonnet': `{ greeting: 'hello ${name}' }\n`,
});
const bytesOf = (f: Record<string, string>): number => Object.values(f).reduce((n, t) => n + Buffer.byteLength(t), 0);

describe('remote render fleet (replicas sharing a Redis)', { skip }, () => {
  let sb: RemoteSandbox;
  let redis: RedisServer;
  let a: ServerHandle;
  let b: ServerHandle;
  let ca: string;
  let client: Redis;
  const metrics = async (srv: ServerHandle): Promise<string> => (await get(srv.url, ca, '/metrics')).text;
  const replica = (name: string): Promise<ServerHandle> =>
    sb.startServer([
      '--redis-url',
      redis.url,
      '--store',
      join(sb.dir, name, 'store'),
      '--work-dir',
      join(sb.dir, name, 'work'),
      '--redis-timeout',
      '500ms',
    ]);
  const renders = async (srv: ServerHandle, tenant: string): Promise<number> =>
    metricValue(await metrics(srv), 'kubecfg_remote_renders_total', { tenant });

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-a' }, { name: 'team-b' }]);
    ca = readFileSync(sb.tls.ca, 'utf8');
    redis = await RedisServer.start();
    [a, b] = await Promise.all([replica('a'), replica('b')]);
    client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    // The outage test stops the server under this client too; its reconnect errors are expected.
    client.on('error', () => {});
    await client.connect();
  });
  after(async () => {
    client?.disconnect();
    await a?.stop();
    await b?.stop();
    await redis?.stop();
    sb?.cleanup();
  });

  test('a runner that lands on another replica uploads 0 bytes and gets a cache hit there', async () => {
    const f = files('hop');
    const r1 = await sb.runClient(sb.clientDir('hop-1', f), 'team-a', a.url, ['show', 'app.jsonnet']);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, /greeting: hello hop/);
    assert.equal(metricValue(await metrics(a), 'kubecfg_remote_upload_bytes_total', { tenant: 'team-a' }), bytesOf(f));

    const r2 = await sb.runClient(sb.clientDir('hop-2', f), 'team-a', b.url, ['show', 'app.jsonnet']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, r1.stdout);
    const m = await metrics(b);
    assert.equal(metricValue(m, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-a' }), 0, 'nothing uploaded to B');
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-a', outcome: 'cached' }), 1);
    assert.equal(metricValue(m, 'kubecfg_remote_shared_cache_hits_total', { tenant: 'team-a' }), 1);
    assert.equal(metricValue(m, 'kubecfg_remote_renders_total', { tenant: 'team-a' }), 0, 'B rendered nothing');
    assert.equal(metricValue(m, 'kubecfg_remote_redis_up'), 1);
    assert.match((await get(b.url, ca, '/readyz')).text, /^ok\nredis: up\n$/);
  });

  test("tenant isolation: B finds none of A's blobs or results, and every key carries its tenant", async () => {
    const f = files('hop');
    const before = await renders(b, 'team-b');
    const r = await sb.runClient(sb.clientDir('hop-b', f), 'team-b', b.url, ['show', 'app.jsonnet']);
    assert.equal(r.code, 0, r.stderr);
    const m = await metrics(b);
    assert.equal(metricValue(m, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-b' }), bytesOf(f), 'B uploads');
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-b', outcome: 'cached' }), 0);
    assert.equal(await renders(b, 'team-b'), before + 1, "B's own render");

    const keys = await client.keys('*');
    const ownA = tenantPrefix('team-a') + ':';
    const ownB = tenantPrefix('team-b') + ':';
    assert.ok(keys.length > 0);
    for (const k of keys) assert.ok(k.startsWith(ownA) || k.startsWith(ownB), k);
    // The same file is stored twice, once under each tenant: A's copy is not B's.
    const digest = sha256(f['lib.libsonnet']!);
    assert.ok(keys.includes(`${ownA}b:${digest}`));
    assert.ok(keys.includes(`${ownB}b:${digest}`));
  });

  test('the same missing result asked of both replicas at once is rendered once', async () => {
    const f = files('burst', 20_000);
    const [ra, rb] = [await renders(a, 'team-a'), await renders(b, 'team-a')];
    const runs = Array.from({ length: 6 }, (_, i) =>
      sb.runClient(sb.clientDir(`burst-${i}`, f), 'team-a', i % 2 ? b.url : a.url, ['show', 'app.jsonnet']),
    );
    const results = await Promise.all(runs);
    for (const r of results) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, results[0]!.stdout);
    }
    const total = (await renders(a, 'team-a')) - ra + ((await renders(b, 'team-a')) - rb);
    assert.equal(total, 1, 'one render for the whole fleet');
  });

  test('a blob read from Redis is trusted only after its digest is checked', async () => {
    const f = files('tamper');
    const r1 = await sb.runClient(sb.clientDir('tamper-1', f), 'team-a', a.url, ['show', 'app.jsonnet']);
    assert.equal(r1.code, 0, r1.stderr);
    // Someone with Redis access swaps the bytes stored under the library's digest.
    const key = `${tenantPrefix('team-a')}:b:${sha256(f['lib.libsonnet']!)}`;
    assert.equal(await client.exists(key), 1);
    await client.set(key, "{ greeting: 'pwned' }\n");
    const r2 = await sb.runClient(sb.clientDir('tamper-2', f), 'team-a', b.url, ['show', 'app.jsonnet']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, r1.stdout);
    assert.doesNotMatch(r2.stdout, /pwned/);
    const m = await metrics(b);
    assert.equal(metricValue(m, 'kubecfg_remote_shared_blob_rejected'), 1);
    assert.equal(await client.exists(key), 1, 'the client uploaded the real bytes again');
    assert.equal(await client.get(key), f['lib.libsonnet']);
  });

  test('Redis going away fails no render; the replicas use it again when it is back', async () => {
    await redis.stop();
    const f = files('outage');
    const r = await sb.runClient(sb.clientDir('outage-1', f), 'team-a', a.url, ['show', 'app.jsonnet']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hello outage/);
    const ready = await get(a.url, ca, '/readyz');
    assert.equal(ready.status, 200, 'a replica without Redis still serves');
    assert.match(ready.text, /redis: down/);
    const m = await metrics(a);
    assert.equal(metricValue(m, 'kubecfg_remote_redis_up'), 0);
    assert.ok(
      m.split('\n').some((l) => l.startsWith('kubecfg_remote_redis_errors_total{') && !l.endsWith(' 0')),
      'failures are counted',
    );
    // The same commit on B renders there too (nothing shared while Redis is down), and succeeds.
    const r2 = await sb.runClient(sb.clientDir('outage-2', f), 'team-a', b.url, ['show', 'app.jsonnet']);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(r2.stdout, r.stdout);

    await redis.start();
    for (let i = 0; i < 100 && !/redis: up/.test((await get(a.url, ca, '/readyz')).text); i++)
      await new Promise((res) => setTimeout(res, 100));
    for (let i = 0; i < 100 && !/redis: up/.test((await get(b.url, ca, '/readyz')).text); i++)
      await new Promise((res) => setTimeout(res, 100));
    const g = files('after-outage');
    const r3 = await sb.runClient(sb.clientDir('back-1', g), 'team-a', a.url, ['show', 'app.jsonnet']);
    assert.equal(r3.code, 0, r3.stderr);
    const before = metricValue(await metrics(b), 'kubecfg_remote_shared_cache_hits_total', { tenant: 'team-a' });
    const r4 = await sb.runClient(sb.clientDir('back-2', g), 'team-a', b.url, ['show', 'app.jsonnet']);
    assert.equal(r4.stdout, r3.stdout);
    assert.equal(
      metricValue(await metrics(b), 'kubecfg_remote_shared_cache_hits_total', { tenant: 'team-a' }),
      before + 1,
    );
  });
});
