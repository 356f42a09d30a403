/**
 * What diff and update print for people and scripts (issue 23): diff logs
 * kubecfg's `Differences found.` (ErrDiffFound) and exits 10, `--color=always`
 * colours the hunks even when stdout is a pipe (auto: only on a terminal, as
 * kubecfg), and `-o json` gives the documented summaries of diff and update
 * (docs/cluster.md). Built CLI, real daemon, the test API server.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const APP = (value: string, extra = ''): string =>
  `{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { a: '${value}' } }${extra} }\n`;
const NS = ", ns: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }";

describe('diff and update output', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  let server: TestApiServer;
  let kc: string;
  const app = (): string => join(sb.work, 'app.jsonnet');
  const run = (args: string[], env: Record<string, string> = {}) => sb.run(args, { env: { KUBECONFIG: kc, ...env } });

  before(async () => {
    sb = new Sandbox();
    const { doc, bytes } = openapiDocument();
    server = await startTestApiServer({ openapi: doc, openapiBytes: bytes });
    kc = join(sb.work, 'kc.yaml');
    writeFileSync(kc, server.kubeconfig());
  });
  after(async () => {
    await sb.cleanup();
    await server.close();
  });

  it('update -o json sums up what was created, updated or left alone', async () => {
    writeFileSync(app(), APP('1', NS));
    const r = await run(['update', '-o', 'json', app()]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Creating configmaps default\.web$/m, 'the progress lines stay on stderr');
    assert.deepEqual(JSON.parse(r.stdout), {
      command: 'update',
      dryRun: false,
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', resource: 'namespaces', name: 'team', action: 'created' },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          resource: 'configmaps',
          namespace: 'default',
          name: 'web',
          action: 'created',
        },
      ],
      garbageCollection: null,
    });
    writeFileSync(app(), APP('2', NS));
    const again = await run(['update', '--output=json', '--dry-run', '--gc-tag', 'app', app()]);
    assert.equal(again.code, 0, again.stderr);
    const doc = JSON.parse(again.stdout);
    assert.equal(doc.dryRun, true);
    // The gc tag is added to both: both change (nothing is written: a dry run).
    assert.deepEqual(
      doc.objects.map((o: { name: string; action: string }) => `${o.name}:${o.action}`),
      ['team:updated', 'web:updated'],
    );
    assert.deepEqual(doc.garbageCollection, { deleted: [], kept: [], unverifiable: [] });
  });

  it('diff: no differences, exit 0 and no summary line', async () => {
    writeFileSync(app(), APP('1', NS));
    const r = await run(['diff', '--diff-strategy=subset', app()]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Differences found/);
  });

  it("diff: kubecfg's 'Differences found.' on stderr and exit 10; colours only when asked (stdout is a pipe)", async () => {
    writeFileSync(app(), APP('2'));
    const plain = await run(['diff', '--diff-strategy=subset', app()]);
    assert.equal(plain.code, 10, plain.stderr);
    assert.equal(plain.stderr, 'Differences found.\n');
    assert.doesNotMatch(plain.stdout, /\u001b\[/);
    assert.match(plain.stdout, /^- {4}"a": "1"$/m);

    const colored = await run(['--color=always', 'diff', '--diff-strategy=subset', app()]);
    assert.equal(colored.code, 10);
    // kubecfg's formatDiff: a colour code before each changed line, a reset after every line.
    assert.match(
      colored.stdout,
      /\n\u001b\[0m\u001b\[31m- {4}"a": "1"\n\u001b\[0m\u001b\[32m\+ {4}"a": "2"\n\u001b\[0m {3}\},/,
    );
    assert.equal(colored.stderr, '\u001b[31mERROR \u001b[0mDifferences found.\n');

    const never = await run(['diff', '--color=never', '--diff-strategy=subset', app()], { FORCE_COLOR: '1' });
    assert.equal(never.stdout, plain.stdout);
    const forced = await run(['diff', '--diff-strategy=subset', app()], { FORCE_COLOR: '1' });
    assert.equal(forced.stdout, colored.stdout, 'FORCE_COLOR is --color=always');
  });

  it('diff -o json: every object with its status and hunks, exit code unchanged', async () => {
    writeFileSync(
      app(),
      APP('2', ", extra: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'new', namespace: 'default' } }"),
    );
    const r = await run(['--color=always', 'diff', '-o', 'json', '--diff-strategy=subset', app()]);
    assert.equal(r.code, 10, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(doc), ['command', 'differencesFound', 'objects']);
    assert.equal(doc.differencesFound, true);
    assert.deepEqual(
      doc.objects.map((o: Record<string, string>) => [o.name, o.status]),
      [
        ['new', 'missing'],
        ['web', 'changed'],
      ],
    );
    const web = doc.objects[1];
    assert.deepEqual(Object.keys(web), ['apiVersion', 'kind', 'resource', 'namespace', 'name', 'status', 'diff']);
    assert.match(web.diff, /^@@ .* @@\n/);
    assert.match(web.diff, /^- {4}"a": "1"$/m);
    assert.doesNotMatch(web.diff, /\u001b/, 'the JSON never carries colour codes');
    assert.equal(doc.objects[0].diff, '');
  });
});
