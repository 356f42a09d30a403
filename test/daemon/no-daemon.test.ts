/**
 * `--no-daemon` (and KUBECFG_DAEMON=0) gives the same output and exit code as
 * the daemon, for successes and errors; a second daemon render of unchanged
 * inputs is a cache hit, and an edit is seen; `show --watch` re-renders on change.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, collect, rpc, Sandbox, waitFor, type RunResult } from './harness.js';

describe('daemon and --no-daemon agree', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    writeFileSync(join(sb.work, 'lib.libsonnet'), "{ name: 'web' }\n");
    writeFileSync(
      join(sb.work, 'app.jsonnet'),
      "local lib = import 'lib.libsonnet';\n{ svc: { apiVersion: 'v1', kind: 'Service', metadata: { name: lib.name, labels: { env: std.extVar('env') } } } }\n",
    );
    writeFileSync(join(sb.work, 'broken.jsonnet'), '{ a: }\n');
    writeFileSync(
      join(sb.work, 'multi.yaml'),
      'apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n',
    );
  });
  after(() => sb.cleanup());

  const cases: string[][] = [
    ['show', 'app.jsonnet', '-V', 'env=prod'],
    ['show', '-o', 'json', 'app.jsonnet', '--ext-str=env=dev'],
    ['show', 'multi.yaml', 'app.jsonnet', '-V', 'env=x', '--show-provenance'],
    ['show', 'broken.jsonnet'],
    ['show', 'missing.jsonnet'],
    ['jsonnet', 'app.jsonnet', '-V', 'env=qa'],
    ['eval', 'app.jsonnet', '-V', 'env=qa'],
    ['--features=eval', 'eval', '-o', 'json', 'app.jsonnet', '-V', 'env=qa', '-e', '$.svc.metadata'],
  ];
  it('gives the same stdout, stderr and exit code for every case', async () => {
    // Daemon runs go one after another (they share one daemon); one-shot runs overlap them.
    const direct = Promise.all(cases.map((args) => sb.run(['--no-daemon', ...args])));
    const viaEnv = sb.run(cases[0]!, { env: { KUBECFG_DAEMON: '0' } });
    const viaDaemon: RunResult[] = [];
    for (const args of cases) viaDaemon.push(await sb.run(args));
    const oneshot = await direct;
    cases.forEach((args, i) => {
      const what = `kubecfg ${args.join(' ')}`;
      assert.equal(oneshot[i]!.stdout, viaDaemon[i]!.stdout, what);
      assert.equal(oneshot[i]!.stderr, viaDaemon[i]!.stderr, what);
      assert.equal(oneshot[i]!.code, viaDaemon[i]!.code, what);
    });
    assert.equal((await viaEnv).stdout, viaDaemon[0]!.stdout);
    assert.equal(viaDaemon[0]!.code, 0);
    assert.match(viaDaemon[0]!.stdout, /kind: Service/);
    assert.match(viaDaemon[3]!.stderr, /^error reading broken\.jsonnet: broken\.jsonnet:1:/);
    assert.equal(viaDaemon[3]!.code, 1);
  });

  it('--export-dir writes the spec example file, refuses a non-empty directory, and agrees with --no-daemon', async () => {
    writeFileSync(
      join(sb.work, 'show.jsonnet'),
      "{ deployment: { apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'busybox', labels: { name: 'busybox' } } } }\n",
    );
    const viaDaemon = await sb.run(['show', '--export-dir', 'out-d/', 'show.jsonnet']);
    const direct = await sb.run(['--no-daemon', 'show', '--export-dir', 'out-o/', 'show.jsonnet']);
    assert.equal(viaDaemon.code, 0, viaDaemon.stderr);
    assert.equal(direct.code, 0, direct.stderr);
    const name = 'extensions-v1beta1.Deployment-default.busybox.yaml';
    const want =
      '---\napiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  labels:\n    name: busybox\n  name: busybox\n';
    assert.deepEqual(readdirSync(join(sb.work, 'out-d')), [name]);
    assert.equal(readFileSync(join(sb.work, 'out-d', name), 'utf8'), want);
    assert.equal(readFileSync(join(sb.work, 'out-o', name), 'utf8'), want);
    const again = await sb.run(['show', '--export-dir', 'out-d/', 'show.jsonnet']);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /export directory "out-d\/" is not empty/);
    const nested = await sb.run([
      'show',
      '--export-dir',
      'out-n',
      '--export-filename-format',
      '{{resourceIndex .}}/{{.kind}}',
      '-o',
      'json',
      'show.jsonnet',
    ]);
    assert.equal(nested.code, 0, nested.stderr);
    assert.match(
      readFileSync(join(sb.work, 'out-n', '0', 'Deployment.json'), 'utf8'),
      /^\{\n  "apiVersion": "extensions\/v1beta1"/,
    );
  });

  it('serves an unchanged render from the cache and sees an edit', async () => {
    const first = await sb.run(['show', 'app.jsonnet', '-V', 'env=cache']);
    const hitsBefore = (await rpc(sb.socket, 'daemon/status', {})).result.caches[0].hits;
    const second = await sb.run(['show', 'app.jsonnet', '-V', 'env=cache']);
    assert.equal(second.stdout, first.stdout);
    assert.equal((await rpc(sb.socket, 'daemon/status', {})).result.caches[0].hits, hitsBefore + 1);
    writeFileSync(join(sb.work, 'lib.libsonnet'), "{ name: 'api' }\n");
    const third = await sb.run(['show', 'app.jsonnet', '-V', 'env=cache']);
    assert.match(third.stdout, /name: api/);
    writeFileSync(join(sb.work, 'lib.libsonnet'), "{ name: 'web' }\n");
  });

  for (const mode of ['daemon', 'no-daemon']) {
    it(`show --watch re-renders on change (${mode})`, async () => {
      writeFileSync(
        join(sb.work, `watched-${mode}.json`),
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } }),
      );
      const child = sb.spawnCli([
        ...(mode === 'no-daemon' ? ['--no-daemon'] : []),
        'show',
        '--watch',
        `watched-${mode}.json`,
      ]);
      let out = '';
      let err = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
      const done = collect(child);
      await waitFor('the first render', () => (err.includes('watching') ? true : undefined));
      assert.match(out, /name: before/);
      writeFileSync(
        join(sb.work, `watched-${mode}.json`),
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } }),
      );
      await waitFor('the re-render', () => (out.includes('name: after') ? true : undefined));
      writeFileSync(join(sb.work, `watched-${mode}.json`), '{ broken');
      await waitFor('the error', () => (/error reading watched-.*invalid character/.test(err) ? true : undefined));
      assert.match(err, /re-rendering at/);
      child.kill('SIGINT');
      const r = await done;
      assert.equal(r.code, 130);
    });
  }
});
