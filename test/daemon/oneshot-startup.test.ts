// Issue 22 targets 1-2: a one-shot render loads the engine bundle, but not the Node built-ins
// and libraries that only other commands use (scripts/build.mjs makes them lazy: TLS, HTTP,
// gzip, child processes, DNS, chokidar's fs/promises). The structural fact is tested, not a
// time, and the same bytes must come out with and without the probe.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from './harness.js';
import { loadedNativeModules, writeModuleLoadProbe } from '../support/native-modules.js';

const NOT_IN_A_ONE_SHOT_RENDER = [
  'tls',
  'http',
  'https',
  'http2',
  'zlib',
  'dns',
  'dgram',
  'child_process',
  'fs/promises',
];

describe('one-shot start-up: what a --no-daemon render loads', { skip: !BUILT && 'run npm run build first' }, () => {
  let sb: Sandbox;
  let probe: string;
  let file: string;
  before(() => {
    sb = new Sandbox();
    probe = writeModuleLoadProbe(sb.root);
    file = join(sb.work, 'main.jsonnet');
    writeFileSync(
      file,
      "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: std.md5('v') } } }\n",
    );
  });
  after(async () => {
    await sb.cleanup();
  });

  const loaded = loadedNativeModules;

  for (const command of ['jsonnet', 'show']) {
    it(`--no-daemon ${command} prints the same bytes and loads none of the lazy built-ins`, async () => {
      const plain = await sb.run(['--no-daemon', command, file]);
      assert.equal(plain.code, 0, plain.stderr);
      const out = join(sb.root, `modules-${command}.txt`);
      const probed = await sb.run(['--no-daemon', command, file], {
        env: { NODE_OPTIONS: `--require ${probe}`, PROBE_OUT: out },
      });
      assert.equal(probed.code, 0, probed.stderr);
      assert.equal(probed.stdout, plain.stdout);
      const mods = loaded(out);
      assert.ok(mods.has('vm'), 'the probe sees the engine loader');
      for (const m of NOT_IN_A_ONE_SHOT_RENDER) assert.ok(!mods.has(m), `a one-shot ${command} loaded ${m}`);
    });
  }
});
