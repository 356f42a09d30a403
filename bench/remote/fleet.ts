/**
 * Remote render across replicas (issue 26): three service replicas and one
 * redis-server on loopback, against the same three replicas without Redis,
 * in one run. Prints: what a runner landing on a second replica uploads and
 * whether it is served from cache; how many renders 50 clients asking for
 * the same commit across the three replicas cause; requests lost when Redis
 * is killed mid-run; and p50/p95 CLI latency of a mixed run with and without
 * Redis. Needs a build (dist/), openssl and redis-server; no timing is
 * asserted.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeRepo } from '../daemon/repo.js';
import { fmtMs, printTable } from '../lib/measure.js';
import { getText, hasOpenssl, metricValue, RemoteSandbox, type ServerHandle } from '../../test/remote/harness.js';
import { hasRedisServer, RedisServer } from '../../test/support/redis-server.js';

const CLIENTS = Number(process.env.BENCH_FLEET_CLIENTS ?? 50);

const metrics = async (srv: ServerHandle, ca: string): Promise<string> => (await getText(srv.url, ca, '/metrics')).text;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

if (!hasOpenssl() || !hasRedisServer()) {
  console.log('skipped: needs openssl and redis-server');
  process.exit(0);
}

const sb = new RemoteSandbox([{ name: 'bench', maxConcurrent: 64, maxQueued: 256 }]);
const redis = await RedisServer.start();
const servers: ServerHandle[] = [];
try {
  const ca = readFileSync(sb.tls.ca, 'utf8');
  const origin = join(sb.dir, 'origin');
  const repo = writeRepo(origin, 120, 20);
  const mainRel = relative(origin, repo.main);
  let checkout = 0;
  /** A fresh checkout of the commit (a cold CI runner). */
  const clone = (): string => {
    const dir = join(sb.dir, 'runners', String(checkout++));
    mkdirSync(dir, { recursive: true });
    cpSync(origin, dir, { recursive: true });
    return dir;
  };
  const leafRel = relative(origin, repo.leaf);
  /** Makes the checkout another commit: a value the render reads changes. */
  const commit = (dir: string, n: number): void => {
    const leaf = join(dir, leafRel);
    writeFileSync(leaf, readFileSync(leaf, 'utf8').replace(/weight:: \d+/, `weight:: ${1000 + n}`));
  };
  const fleet = async (name: string, withRedis: boolean): Promise<ServerHandle[]> =>
    Promise.all(
      [0, 1, 2].map((i) =>
        sb.startServer([
          ...(withRedis ? ['--redis-url', redis.url] : []),
          '--store',
          join(sb.dir, name, String(i), 'store'),
          '--work-dir',
          join(sb.dir, name, String(i), 'work'),
          '--log-level',
          'warn',
          '--max-renders',
          '2',
        ]),
      ),
    );
  const sum = async (
    replicas: ServerHandle[],
    metric: string,
    labels: Record<string, string> = { tenant: 'bench' },
  ): Promise<number> => {
    let n = 0;
    for (const r of replicas) n += metricValue(await metrics(r, ca), metric, labels);
    return n;
  };
  const redisErrors = async (replicas: ServerHandle[]): Promise<number> => {
    let n = 0;
    for (const op of ['lock', 'lock-peek', 'result-get', 'result-set', 'blob-check', 'blob-get', 'blob-set'])
      n += await sum(replicas, 'kubecfg_remote_redis_errors_total', { op });
    return n;
  };
  const show = async (dir: string, srv: ServerHandle): Promise<{ ms: number; ok: boolean }> => {
    const t0 = performance.now();
    const r = await sb.runClient(dir, 'bench', srv.url, ['show', mainRel]);
    return { ms: performance.now() - t0, ok: r.code === 0 };
  };

  // 1. A runner that lands on replica B after another rendered the commit on A.
  const shared = await fleet('shared', true);
  servers.push(...shared);
  const [a, b] = shared as [ServerHandle, ServerHandle, ServerHandle];
  await show(clone(), a);
  const uploadedBefore = metricValue(await metrics(b, ca), 'kubecfg_remote_upload_bytes_total', { tenant: 'bench' });
  const hop = await show(clone(), b);
  const mb = await metrics(b, ca);
  const uploadedOnB = metricValue(mb, 'kubecfg_remote_upload_bytes_total', { tenant: 'bench' }) - uploadedBefore;
  const hitOnB = metricValue(mb, 'kubecfg_remote_shared_cache_hits_total', { tenant: 'bench' });

  // 2. 50 clients, one new commit, three replicas, all at once.
  const rendersBefore = await sum(shared, 'kubecfg_remote_renders_total');
  const burstDirs = Array.from({ length: CLIENTS }, () => clone());
  for (const d of burstDirs) commit(d, 1);
  const burst = await Promise.all(burstDirs.map((d, i) => show(d, shared[i % 3]!)));
  const burstRenders = (await sum(shared, 'kubecfg_remote_renders_total')) - rendersBefore;
  const burstRedisErrors = await redisErrors(shared);
  const burstFailed = burst.filter((r) => !r.ok).length;

  // 3. Redis killed while 30 clients render (each its own commit, so every one renders).
  const outageDirs = Array.from({ length: 30 }, (_, i) => {
    const d = clone();
    commit(d, 100 + i);
    return d;
  });
  const outageRuns = outageDirs.map((d, i) => show(d, shared[i % 3]!));
  await new Promise((r) => setTimeout(r, 1500));
  await redis.stop();
  const outage = await Promise.all(outageRuns);
  const lost = outage.filter((r) => !r.ok).length;
  await redis.start();

  // 4. Latency: the same mixed run (cold runners, 4 at a time, round-robin) with and without Redis.
  const mixed = async (replicas: ServerHandle[], base: number): Promise<number[]> => {
    const times: number[] = [];
    const dirs = Array.from({ length: 24 }, (_, i) => {
      const d = clone();
      // Six commits, four runners each: the fleet renders each commit once with Redis, up to 3x without.
      commit(d, base + (i % 6));
      return d;
    });
    for (let i = 0; i < dirs.length; i += 4) {
      // Runner j builds commit j % 6 on replica floor(j / 6) % 3: every commit reaches every replica.
      const batch = await Promise.all(
        dirs.slice(i, i + 4).map((d, k) => show(d, replicas[Math.floor((i + k) / 6) % 3]!)),
      );
      for (const r of batch) times.push(r.ms);
    }
    return times;
  };
  for (let i = 0; i < 100 && redisDown(await metrics(a, ca)); i++) await new Promise((r) => setTimeout(r, 100));
  const sharedBefore = await sum(shared, 'kubecfg_remote_renders_total');
  const withRedis = await mixed(shared, 200);
  const sharedRenders = (await sum(shared, 'kubecfg_remote_renders_total')) - sharedBefore;
  const alone = await fleet('alone', false);
  servers.push(...alone);
  const withoutRedis = await mixed(alone, 300);
  const aloneRenders = await sum(alone, 'kubecfg_remote_renders_total');

  printTable([
    ['figure', 'with Redis', 'target'],
    ['runner on replica B after A rendered: bytes uploaded', String(uploadedOnB), '0'],
    ['  served from the shared cache on B', hitOnB >= 1 ? 'yes' : 'no', 'yes'],
    ['  latency', fmtMs(hop.ms), '-'],
    [`${CLIENTS} clients, same commit, 3 replicas: renders`, String(burstRenders), '1'],
    ['  failed requests', String(burstFailed), '0'],
    ['  Redis commands failed or late (each one a local render)', String(burstRedisErrors), '0'],
    ['Redis killed mid-run (30 renders): requests lost', String(lost), '0'],
  ]);
  console.log('');
  printTable([
    ['mixed run, 24 cold runners, 6 commits', 'with Redis', 'without Redis', 'ratio'],
    [
      'p50',
      fmtMs(percentile(withRedis, 50)),
      fmtMs(percentile(withoutRedis, 50)),
      (percentile(withRedis, 50) / percentile(withoutRedis, 50)).toFixed(2) + 'x',
    ],
    [
      'p95',
      fmtMs(percentile(withRedis, 95)),
      fmtMs(percentile(withoutRedis, 95)),
      (percentile(withRedis, 95) / percentile(withoutRedis, 95)).toFixed(2) + 'x',
    ],
    ['renders', String(sharedRenders), String(aloneRenders), '-'],
  ]);
} finally {
  for (const s of servers) await s.stop();
  await redis.stop();
  sb.cleanup();
}

function redisDown(text: string): boolean {
  return metricValue(text, 'kubecfg_remote_redis_up') !== 1;
}
