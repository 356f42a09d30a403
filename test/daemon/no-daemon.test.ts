/**
 * `--no-daemon` (and KUBECFG_DAEMON=0) gives the same output and exit code as
 * the daemon, for successes and errors; a second daemon render of unchanged
 * inputs is a cache hit, and an edit is seen; `show --watch` re-renders on change.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, collect, rpc, Sandbox, waitFor } from './harness.js';

describe('daemon and --no-daemon agree', { skip: !BUILT && 'run npm run build first' }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    writeFileSync(join(sb.work, 'lib.libsonnet'), "{ name: 'web' }\n");
    writeFileSync(
      join(sb.work, 'app.jsonnet'),
      "local lib = import 'lib.libsonnet';\n{ svc: { apiVersion: 'v1', kind: 'Service', metadata: { name: lib.name, labels: { env: std.extVar('env') } } } }\n",
    );
    writeFileSync(join(sb.work, 'broken.jsonnet'), '{ a: }\n');
    writeFileSync(join(sb.work, 'multi.yaml'), 'apiVersion: v1\nkind: A\nmetadata: {name: a}\n---\napiVersion: v1\nkind: B\nmetadata: {name: b}\n');
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
  for (const args of cases) {
    it(`kubecfg ${args.join(' ')}`, async () => {
      const viaDaemon = await sb.run(args);
      const direct = await sb.run(['--no-daemon', ...args]);
      const viaEnv = await sb.run(args, { env: { KUBECFG_DAEMON: '0' } });
      assert.equal(direct.stdout, viaDaemon.stdout);
      assert.equal(direct.stderr, viaDaemon.stderr);
      assert.equal(direct.code, viaDaemon.code);
      assert.equal(viaEnv.stdout, viaDaemon.stdout);
      assert.equal(viaEnv.code, viaDaemon.code);
    });
  }

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
      writeFileSync(join(sb.work, `watched-${mode}.json`), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } }));
      const child = sb.spawnCli([...(mode === 'no-daemon' ? ['--no-daemon'] : []), 'show', '--watch', `watched-${mode}.json`]);
      let out = '';
      let err = '';
      child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
      const done = collect(child);
      await waitFor('the first render', () => (err.includes('watching') ? true : undefined));
      assert.match(out, /name: before/);
      writeFileSync(join(sb.work, `watched-${mode}.json`), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } }));
      await waitFor('the re-render', () => (out.includes('name: after') ? true : undefined));
      writeFileSync(join(sb.work, `watched-${mode}.json`), '{ broken');
      await waitFor('the error', () => (/ERROR .*invalid JSON/.test(err) ? true : undefined));
      assert.match(err, /re-rendering at/);
      child.kill('SIGINT');
      const r = await done;
      assert.equal(r.code, 130);
    });
  }
});
