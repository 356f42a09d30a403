// Issue 22 target 5: a warm command's CLI loads only what the daemon path needs (client-cli/main.ts
// imports the rest where it is used; the bundle is CommonJS so those imports are lazy). The
// structural fact is tested, not a time: after a warm `show`, the CLI process has not loaded the
// ES module loader nor the builtins of the launcher, --remote and the engine, and it printed the
// same bytes as without the probe. The commands that do need them still work from the same bundle.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from './harness.js';
import { loadedNativeModules, writeModuleLoadProbe } from '../support/native-modules.js';

const NOT_ON_THE_WARM_PATH = [
  'child_process',
  'crypto',
  'http',
  'https',
  'vm',
  // The ES module loader's loading path (node:module alone creates its loader object, for 0.3 ms).
  'internal/modules/esm/translators',
  'internal/modules/esm/module_job',
];

describe(
  'CLI start-up: what a warm command loads',
  { skip: !BUILT && 'run npm run build first', timeout: 120_000 },
  () => {
    let sb: Sandbox;
    let probe: string;
    let file: string;
    before(async () => {
      sb = new Sandbox();
      probe = writeModuleLoadProbe(sb.root);
      file = join(sb.work, 'main.jsonnet');
      writeFileSync(
        file,
        "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: 'v' } } }\n",
      );
      const started = await sb.run(['daemon', 'start']);
      assert.equal(started.code, 0, started.stderr);
    });
    after(async () => {
      await sb.cleanup();
    });

    const loaded = loadedNativeModules;

    it('a warm show prints the same bytes and loads none of the lazy builtins', async () => {
      const plain = await sb.run(['show', file]);
      assert.equal(plain.code, 0, plain.stderr);
      const out = join(sb.root, 'modules-show.txt');
      const probed = await sb.run(['show', file], { env: { NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: out } });
      assert.equal(probed.code, 0, probed.stderr);
      assert.equal(probed.stdout, plain.stdout);
      const mods = loaded(out);
      assert.ok(mods.has('net'), 'the probe sees the socket client');
      for (const m of NOT_ON_THE_WARM_PATH) assert.ok(!mods.has(m), `a warm show loaded ${m}`);
    });

    it('commands off the warm path load what they need from the same bundle', async () => {
      const version = await sb.run(['version']);
      assert.equal(version.code, 0, version.stderr);
      assert.match(version.stdout, /kubecfg version: /);
      const help = await sb.run(['show', '--help']);
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /Usage:/);
      const unknown = await sb.run(['shwo']);
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /unknown command "shwo" for "kubecfg"/);
      const status = await sb.run(['daemon', 'status']);
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /running/);
      const oneshot = await sb.run(['--no-daemon', 'show', file]);
      assert.equal(oneshot.code, 0, oneshot.stderr);
      assert.equal(oneshot.stdout, (await sb.run(['show', file])).stdout);
    });
  },
);
