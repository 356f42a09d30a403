/**
 * `kubecfg fmt` and `kubecfg yaklfmt` end to end through the built CLI, with
 * the daemon and with --no-daemon: print, --test (exit 1 listing the file),
 * -i (rewritten, then --test passes), a syntax error leaving the file as it
 * was, jsonnetfmt's options, and the yakl gate.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from '../daemon/harness.js';

const MODES = [
  { name: 'daemon', flags: [] as string[] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

const UNFORMATTED = '{a:1,\n\n\n\n b: "x"}\n';
const FORMATTED = "{\n  a: 1,\n\n\n  b: 'x',\n}\n";

describe('kubecfg fmt and yaklfmt', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    const run = (args: string[]) => sb.run([...mode.flags, ...args], { cwd: sb.work });

    it(`${mode.name}: prints, tests and rewrites in place`, async () => {
      const file = join(sb.work, `${mode.name}.jsonnet`);
      writeFileSync(file, UNFORMATTED);
      const printed = await run(['fmt', file]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, FORMATTED);
      const tested = await run(['fmt', '--test', file]);
      assert.equal(tested.code, 1);
      assert.equal(tested.stdout, `${file}\n`);
      const inPlace = await run(['fmt', '-i', file]);
      assert.equal(inPlace.code, 0, inPlace.stderr);
      assert.equal(readFileSync(file, 'utf8'), FORMATTED);
      assert.equal((await run(['fmt', '--test', file])).code, 0);
    });

    it(`${mode.name}: options, and a syntax error leaves the file untouched`, async () => {
      const file = join(sb.work, `${mode.name}-opts.jsonnet`);
      writeFileSync(file, UNFORMATTED);
      const r = await run(['fmt', '--string-style', 'd', '--indent', '4', file]);
      assert.equal(r.stdout, '{\n    a: 1,\n\n\n    b: "x",\n}\n');
      const bad = join(sb.work, `${mode.name}-bad.jsonnet`);
      writeFileSync(bad, '{ a: }\n');
      const e = await run(['fmt', '-i', bad]);
      assert.equal(e.code, 1);
      assert.match(e.stderr, /-bad\.jsonnet:1:/);
      assert.equal(readFileSync(bad, 'utf8'), '{ a: }\n');
    });

    it(`${mode.name}: yaklfmt needs the yakl feature`, async () => {
      const file = join(sb.work, `${mode.name}.yakl`);
      writeFileSync(file, 'a: ${1+2}\n');
      const gated = await run(['yaklfmt', file]);
      assert.equal(gated.code, 1);
      assert.match(gated.stderr, /yakl is an alpha feature; turn it on with --features=yakl/);
      const r = await run(['--features=yakl', 'yaklfmt', file]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'a: ${1 + 2}\n');
    });
  }
});
