/**
 * The cluster commands (update, diff, delete, validate) end to end through
 * the built CLI against the test API server, with the daemon and with
 * --no-daemon: update then diff (exit 0), edit then diff (exit 10 and the
 * diff text), delete, validate of a bad object, and the connection taken from
 * each request's own KUBECONFIG (never the daemon's environment).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

const APP = (value: string): string =>
  `{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { a: '${value}' } } }\n`;

const BAD =
  "{ d: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: 'default' }, spec: {\n" +
  "  replicas: 'three', selector: { matchLabels: { a: 'b' } },\n" +
  "  template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } } }\n";

async function startServer(): Promise<TestApiServer> {
  const { doc, bytes } = openapiDocument();
  let uid = 0;
  return startTestApiServer({
    openapi: doc,
    openapiBytes: bytes,
    now: () => new Date('2026-01-02T03:04:05Z'),
    newUid: () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`,
  });
}

describe('cluster commands through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  const servers: TestApiServer[] = [];
  before(() => {
    sb = new Sandbox();
  });
  after(async () => {
    await sb.cleanup();
    for (const s of servers) await s.close();
  });

  for (const mode of MODES) {
    it(`${mode.name}: update, diff, edit, diff, delete, validate`, async () => {
      const server = await startServer();
      servers.push(server);
      const kc = join(sb.work, `kc-${mode.name}.yaml`);
      writeFileSync(kc, server.kubeconfig());
      const app = join(sb.work, `app-${mode.name}.jsonnet`);
      const run = (args: string[]) => sb.run([...mode.flags, ...args], { env: { KUBECONFIG: kc } });

      writeFileSync(app, APP('1'));
      const update = await run(['update', app]);
      assert.equal(update.code, 0, update.stderr);
      assert.match(update.stderr, /^Creating configmaps default\.web$/m);

      const same = await run(['diff', '--diff-strategy=subset', app]);
      assert.equal(same.code, 0, same.stderr);
      assert.match(same.stdout, /configmaps default\.web unchanged/);

      writeFileSync(app, APP('2'));
      const changed = await run(['diff', '--diff-strategy=subset', app]);
      assert.equal(changed.code, 10, changed.stderr);
      assert.match(changed.stdout, /^--- live configmaps default\.web$/m);
      assert.match(changed.stdout, /^\+\+\+ config configmaps default\.web$/m);
      assert.match(changed.stdout, /^- {4}"a": "1"$/m);
      assert.match(changed.stdout, /^\+ {4}"a": "2"$/m);

      const del = await run(['delete', app]);
      assert.equal(del.code, 0, del.stderr);
      assert.match(del.stderr, /^Deleting configmaps default\.web$/m);
      const gone = await run(['diff', app]);
      assert.equal(gone.code, 10);
      assert.match(gone.stdout, /configmaps default\.web doesn't exist on server/);

      const bad = join(sb.work, `bad-${mode.name}.jsonnet`);
      writeFileSync(bad, BAD);
      const validate = await run(['validate', bad]);
      assert.equal(validate.code, 1);
      assert.match(validate.stderr, /ValidationError\(v1\.Deployment\.spec\.replicas\): invalid type/);
      assert.match(validate.stderr, /^Validation failed$/m);
      const refused = await run(['update', bad]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^Validation failed; nothing was changed/m);

      const broken = join(sb.work, `broken-${mode.name}.jsonnet`);
      writeFileSync(broken, '{ a: }\n');
      const renderError = await run(['diff', broken]);
      assert.equal(renderError.code, 1);
      assert.match(renderError.stderr, /^error reading .*broken-.*\.jsonnet/m);
    });
  }

  it('daemon: each request connects with its own KUBECONFIG', async () => {
    const a = await startServer();
    const b = await startServer();
    servers.push(a, b);
    const kcA = join(sb.work, 'kc-a.yaml');
    const kcB = join(sb.work, 'kc-b.yaml');
    writeFileSync(kcA, a.kubeconfig());
    writeFileSync(kcB, b.kubeconfig());
    const app = join(sb.work, 'two-clusters.jsonnet');
    writeFileSync(app, APP('x'));
    const upd = await sb.run(['update', app], { env: { KUBECONFIG: kcA } });
    assert.equal(upd.code, 0, upd.stderr);
    const onA = await sb.run(['diff', '--diff-strategy=subset', app], { env: { KUBECONFIG: kcA } });
    assert.equal(onA.code, 0, onA.stderr);
    const onB = await sb.run(['diff', '--diff-strategy=subset', app], { env: { KUBECONFIG: kcB } });
    assert.equal(onB.code, 10, onB.stderr);
    assert.match(onB.stdout, /doesn't exist on server/);
    const yakl = join(sb.work, 'app.yakl');
    writeFileSync(
      yakl,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yk\n  namespace: default\ndata:\n  a: ${"x" + "y"}\n',
    );
    const gated = await sb.run(['diff', yakl], { env: { KUBECONFIG: kcA } });
    assert.equal(gated.code, 1);
    assert.match(gated.stderr, /yakl is an alpha feature; turn it on with --features=yakl/);
    const yaklDiff = await sb.run(['diff', '--features=yakl', yakl], { env: { KUBECONFIG: kcA } });
    assert.equal(yaklDiff.code, 10, yaklDiff.stderr);
    assert.match(yaklDiff.stdout, /configmaps default\.yk doesn't exist on server/);
    const none = await sb.run(['diff', app], { env: { KUBECONFIG: '', HOME: join(sb.root, 'nohome') } });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^.*no kubeconfig found/m);
  });
});
