/**
 * `bench/kube/run`: `update` of 1,000 objects and `diff` of the same 1,000
 * unchanged objects against the test API server (real HTTP on loopback),
 * printing requests made (counted on the server) and time taken. There is no
 * kubecfg binary on this machine, so the peer is ourselves one object at a
 * time (--parallelism=1); for diff also the GET-per-object pattern (the
 * server refusing LIST, so every object is read with its own GET), which is
 * what kubecfg does. Each update runs against a fresh server. No assertions
 * on time.
 */
import type { JsonObject } from '../../lang/common/json.js';
import { sessionFor, type ClusterSession } from '../../kube/cluster.js';
import { diffObjects } from '../../kube/diff.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import { updateObjects } from '../../kube/update.js';
import { startTestApiServer, type TestApiServer } from '../../test/apiserver/api-server.js';
import { ApiStatusError } from '../../test/apiserver/status.js';
import { openapiDocument } from '../../test/kube/harness.js';
import { fmtMs, printTable } from '../lib/measure.js';

const COUNT = Number(process.env.BENCH_KUBE_OBJECTS ?? 1000);
const PARALLELISM = Number(process.env.BENCH_KUBE_PARALLELISM ?? 8);

/** 1,000 objects: two namespaces, ConfigMaps, Services and Deployments (PodSpec tier) in each. */
function workload(n: number): JsonObject[] {
  const objects: JsonObject[] = [];
  const namespaces = ['bench-a', 'bench-b'];
  for (const ns of namespaces) objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  for (let i = 0; objects.length < n; i++) {
    const ns = namespaces[i % 2]!;
    const name = `app-${i}`;
    const kind = i % 5;
    if (kind < 3)
      objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { i: String(i) } });
    else if (kind === 3)
      objects.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: ns },
        spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
      });
    else
      objects.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: ns, labels: { app: name } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] },
          },
        },
      });
  }
  return objects;
}

interface Server {
  api: TestApiServer;
  refuseLists: { on: boolean };
  session(): ClusterSession;
}

async function startServer(): Promise<Server> {
  const { doc, bytes } = openapiDocument();
  const refuseLists = { on: false };
  const api = await startTestApiServer({
    openapi: doc,
    openapiBytes: bytes,
    intercept: (req) =>
      refuseLists.on && req.verb === 'list' ? new ApiStatusError(403, 'Forbidden', 'no lists') : undefined,
  });
  const session = (): ClusterSession =>
    sessionFor(
      {
        server: api.url,
        namespace: 'default',
        insecureSkipTlsVerify: false,
        auth: { kind: 'none' },
        identity: api.url,
      },
      // Rate limit off (--qps-limit -1): the bench measures requests, not kubecfg's 5 QPS default.
      { cache: new DiscoveryCache(), qps: -1 },
    );
  return { api, refuseLists, session };
}

async function measured(
  server: Server,
  fn: (s: ClusterSession) => Promise<unknown>,
): Promise<{ ms: number; requests: number }> {
  const session = server.session();
  const before = server.api.requests.length;
  const t0 = process.hrtime.bigint();
  await fn(session);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  session.close();
  return { ms, requests: server.api.requests.length - before };
}

const objects = workload(COUNT);
const rows: string[][] = [['case', 'objects', 'requests', 'time', 'vs first row of its command']];

// update: fresh server each time, so every run creates the same 1,000 objects.
const updates: Array<{ p: number; ms: number; requests: number }> = [];
for (const p of [1, PARALLELISM]) {
  const server = await startServer();
  const r = await measured(server, (s) => updateObjects(s, objects, { parallelism: p }));
  updates.push({ p, ...r });
  await server.api.close();
}
for (const u of updates)
  rows.push([
    `update --parallelism=${u.p}`,
    String(COUNT),
    String(u.requests),
    fmtMs(u.ms),
    `${(updates[0]!.ms / u.ms).toFixed(2)}x faster`,
  ]);

// diff of the applied objects (subset: only the fields the config sets, so nothing differs).
const server = await startServer();
await measured(server, (s) => updateObjects(s, objects, { parallelism: PARALLELISM }));
const diffRun = (p: number) => (s: ClusterSession) =>
  diffObjects(s, objects, { strategy: 'subset', omitSecrets: false, parallelism: p }).then((r) => {
    if (r.exitCode !== 0) throw new Error('bench: the diff of unchanged objects found differences');
  });
const diffs: Array<{ label: string; ms: number; requests: number }> = [];
server.refuseLists.on = true;
diffs.push({ label: 'diff, one GET per object (kubecfg), --parallelism=1', ...(await measured(server, diffRun(1))) });
server.refuseLists.on = false;
diffs.push({ label: 'diff, LIST per kind, --parallelism=1', ...(await measured(server, diffRun(1))) });
diffs.push({
  label: `diff, LIST per kind, --parallelism=${PARALLELISM}`,
  ...(await measured(server, diffRun(PARALLELISM))),
});
await server.api.close();
for (const d of diffs)
  rows.push([d.label, String(COUNT), String(d.requests), fmtMs(d.ms), `${(diffs[0]!.ms / d.ms).toFixed(2)}x faster`]);

printTable(rows);
console.log('requests are counted on the test API server and include discovery and the OpenAPI document.');
