/**
 * `kubecfg features` (RFC05) and `.kubecfgrc.jsonnet` (RFC02) end to end
 * through the built CLI, with the daemon and with --no-daemon: the spec's
 * example tables and example rc file, per-feature precedence, the several-rc
 * files error, a broken rc file (located, exit 1), an unknown rc flag, imports
 * outside the rc tree, CLI flags beating rc values, and an rc edit seen by the
 * daemon's result cache.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from '../daemon/harness.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('features and .kubecfgrc.jsonnet', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    // RFC05 "Seeing what's on": an rc file turning yakl on.
    write(join(sb.work, 'rfc05', '.kubecfgrc.jsonnet'), '{ flags+: { features+: { yakl: true } } }\n');
    // RFC02's example.
    write(
      join(sb.work, 'rfc02', '.kubecfgrc.jsonnet'),
      "{ commands+: { show+: { format: 'json', jpath: ['testdata'] } } }\n",
    );
    write(
      join(sb.work, 'rfc02', 'testdata', 'configmap.jsonnet'),
      "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test' } }\n",
    );
    write(join(sb.work, 'rfc02', 'deep', 'dir', 'keep'), '');
    // RFC02 "Multiple files".
    for (const f of ['.kubecfgrc.jsonnet', 'two/.kubecfgrc.jsonnet'])
      write(join(sb.work, 'testdata/fffbad', f), '{}\n');
    for (const f of ['one/demo.jsonnet', 'two/demo.jsonnet']) write(join(sb.work, 'testdata/fffbad', f), '{}\n');
    write(join(sb.work, 'broken', '.kubecfgrc.jsonnet'), '{\n  flags: {\n');
    write(join(sb.work, 'unknown', '.kubecfgrc.jsonnet'), "{ flags: { formatt: 'json' } }\n");
    write(join(sb.work, 'escape', 'rc', '.kubecfgrc.jsonnet'), "{ flags: import '../outside.libsonnet' }\n");
    write(join(sb.work, 'escape', 'outside.libsonnet'), '{}\n');
    write(join(sb.work, 'inside', '.kubecfgrc.jsonnet'), "{ flags: import 'lib/flags.libsonnet' }\n");
    write(join(sb.work, 'inside', 'lib', 'flags.libsonnet'), "{ format: 'json' }\n");
    write(join(sb.work, 'inside', 'app.jsonnet'), "{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }\n");
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    const run = (args: string[], cwd = sb.work, env: Record<string, string> = {}) =>
      sb.run([...mode.flags, ...args], { cwd, env });

    it(`${mode.name}: RFC05 table without an rc file`, async () => {
      const r = await run(['features', '--alpha', '--features=httpd=false']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n').slice(0, 5), [
        'NAME              STAGE  DEFAULT  ENABLED  SOURCE      SINCE',
        'eval              alpha  off      on       --alpha     v0.40.0',
        'traceback         alpha  off      on       --alpha     v0.40.0',
        'pack              alpha  off      on       --alpha     v0.40.0',
        'httpd             alpha  off      off      --features  v0.40.0',
      ]);
    });

    it(`${mode.name}: RFC05 table with the rc file's yakl`, async () => {
      const r = await run(['features', '--alpha', '--features=httpd=false'], join(sb.work, 'rfc05'));
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(r.stdout.split('\n').slice(0, 9), [
        'NAME              STAGE  DEFAULT  ENABLED  SOURCE              SINCE',
        'eval              alpha  off      on       --alpha             v0.40.0',
        'traceback         alpha  off      on       --alpha             v0.40.0',
        'pack              alpha  off      on       --alpha             v0.40.0',
        'httpd             alpha  off      off      --features          v0.40.0',
        'overlay           alpha  off      on       --alpha             v0.40.0',
        'yakl              alpha  off      on       .kubecfgrc.jsonnet  v0.40.0',
        'kustomize-import  alpha  off      on       --alpha             v0.40.0',
        'binary-import     alpha  off      on       --alpha             v0.40.0',
      ]);
    });

    it(`${mode.name}: features -o json, --features adds to the rc file per feature`, async () => {
      const r = await run(['features', '-o', 'json', '--features=pack'], join(sb.work, 'rfc05'));
      assert.equal(r.code, 0, r.stderr);
      const rows = JSON.parse(r.stdout) as Array<{ name: string; enabled: boolean; source: string }>;
      const by = new Map(rows.map((x) => [x.name, x]));
      assert.deepEqual([by.get('yakl')?.enabled, by.get('yakl')?.source], [true, '.kubecfgrc.jsonnet']);
      assert.deepEqual([by.get('pack')?.enabled, by.get('pack')?.source], [true, '--features']);
      assert.deepEqual([by.get('eval')?.enabled, by.get('eval')?.source], [false, 'default']);
    });

    it(`${mode.name}: RFC02 example (commands.show format json + jpath), also from a subdirectory`, async () => {
      const expected =
        '{\n  "apiVersion": "v1",\n  "kind": "ConfigMap",\n  "metadata": {\n    "name": "test"\n  }\n}\n';
      for (const cwd of [join(sb.work, 'rfc02'), join(sb.work, 'rfc02', 'deep', 'dir')]) {
        const r = await run(['show', '-e', "import 'configmap.jsonnet'"], cwd);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, expected);
      }
      // A CLI flag (and the KUBECFG_* env) beats the rc value.
      const yaml = await run(['show', '-o', 'yaml', '-e', "import 'configmap.jsonnet'"], join(sb.work, 'rfc02'));
      assert.equal(yaml.stdout, '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: test\n');
    });

    it(`${mode.name}: inputs finding different rc files fail as RFC02 says`, async () => {
      const r = await run(['show', 'testdata/fffbad/one/demo.jsonnet', 'testdata/fffbad/two/demo.jsonnet']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'all evaluated files should resolve to the same .kubecfgrc.jsonnet, found ["testdata/fffbad/two/.kubecfgrc.jsonnet" "testdata/fffbad/.kubecfgrc.jsonnet"] instead\n',
      );
    });

    it(`${mode.name}: a syntax error in the rc file is located; exit 1`, async () => {
      const r = await run(['features'], join(sb.work, 'broken'));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^.*broken\/\.kubecfgrc\.jsonnet:3:1/m);
    });

    it(`${mode.name}: an unknown rc flag names itself and the rc file`, async () => {
      const r = await run(['show', '-e', '{}'], join(sb.work, 'unknown'));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^\.kubecfgrc\.jsonnet: unknown flag "formatt"/);
    });

    it(`${mode.name}: the rc file may import inside its tree only`, async () => {
      const bad = await run(['features'], join(sb.work, 'escape', 'rc'));
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /may only import files inside .*escape\/rc/);
      const good = await run(['show', 'app.jsonnet'], join(sb.work, 'inside'));
      assert.equal(good.code, 0, good.stderr);
      assert.match(good.stdout, /^\{\n {2}"apiVersion": "v1"/);
    });
  }

  it('daemon: editing the rc file changes the next (otherwise cached) result', async () => {
    const dir = join(sb.work, 'edit');
    write(join(dir, 'app.jsonnet'), "{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } }\n");
    const first = await sb.run(['show', 'app.jsonnet'], { cwd: dir });
    assert.equal(first.stdout, '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns1\n');
    write(join(dir, '.kubecfgrc.jsonnet'), "{ flags: { format: 'json' } }\n");
    const second = await sb.run(['show', 'app.jsonnet'], { cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /^\{/);
    write(join(dir, '.kubecfgrc.jsonnet'), "{ flags: { format: 'yaml' } }\n");
    const third = await sb.run(['show', 'app.jsonnet'], { cwd: dir });
    assert.equal(third.stdout, first.stdout);
  });
});
