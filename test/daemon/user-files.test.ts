// Issue 21 item 3 through the built CLI, with the daemon (umask 077) and with --no-daemon: files
// written for the user keep an existing file's mode and owner (fmt -i), and new files and
// directories (--export-dir, jsonnet -m) get the calling CLI's umask, here 002 so that neither
// the daemon's 077 nor a default 022 could pass by accident.
import assert from 'node:assert/strict';
import { chownSync, chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from './harness.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];
const modeOf = (path: string): number => statSync(path).mode & 0o7777;
const isRoot = process.getuid?.() === 0;

describe('files written for the user (CLI)', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  let saved: number;
  before(() => {
    saved = process.umask(0o002); // inherited by every CLI the test spawns
    sb = new Sandbox();
  });
  after(async () => {
    await sb.cleanup();
    process.umask(saved);
  });

  for (const mode of MODES) {
    it(`fmt -i keeps the mode of the file it rewrites (${mode.name})`, async () => {
      const dir = join(sb.work, `fmt-${mode.name}`);
      mkdirSync(dir, { recursive: true });
      for (const [name, perm] of [
        ['a.jsonnet', 0o644],
        ['b.jsonnet', 0o755],
        ['c.jsonnet', 0o640],
      ] as const) {
        writeFileSync(join(dir, name), '{a:1}');
        chmodSync(join(dir, name), perm);
      }
      const r = await sb.run(['fmt', ...mode.flags, '-i', 'a.jsonnet', 'b.jsonnet', 'c.jsonnet'], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(statSync(join(dir, 'a.jsonnet')).size > 5, true);
      assert.equal(modeOf(join(dir, 'a.jsonnet')).toString(8), '644');
      assert.equal(modeOf(join(dir, 'b.jsonnet')).toString(8), '755');
      assert.equal(modeOf(join(dir, 'c.jsonnet')).toString(8), '640');
    });

    it(`fmt -i keeps the owner of the file it rewrites (${mode.name})`, { skip: !isRoot && 'needs root' }, async () => {
      const dir = join(sb.work, `owner-${mode.name}`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'x.jsonnet');
      writeFileSync(file, '{a:1}');
      chmodSync(file, 0o644);
      chownSync(file, 65534, 65534);
      const r = await sb.run(['fmt', ...mode.flags, '-i', 'x.jsonnet'], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      const st = statSync(file);
      assert.equal(st.uid, 65534);
      assert.equal(st.gid, 65534);
      assert.equal((st.mode & 0o7777).toString(8), '644');
    });

    it(`--export-dir and jsonnet -m create with the CLI's umask (${mode.name})`, async () => {
      const dir = join(sb.work, `export-${mode.name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'app.jsonnet'),
        "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n' } } }",
      );
      const r = await sb.run(['show', ...mode.flags, '--export-dir', 'out/deep', 'app.jsonnet'], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(modeOf(join(dir, 'out')).toString(8), '775');
      assert.equal(modeOf(join(dir, 'out', 'deep')).toString(8), '775');
      const files = (await import('node:fs')).readdirSync(join(dir, 'out', 'deep'), { recursive: true }) as string[];
      const written = files.filter((f) => statSync(join(dir, 'out', 'deep', f)).isFile());
      assert.ok(written.length > 0);
      for (const f of written) assert.equal(modeOf(join(dir, 'out', 'deep', f)).toString(8), '664', f);

      writeFileSync(join(dir, 'multi.jsonnet'), "{ 'sub/a.json': 1 }");
      const m = await sb.run(['jsonnet', ...mode.flags, '-m', 'multi', 'multi.jsonnet'], { cwd: dir });
      assert.equal(m.code, 0, m.stderr);
      assert.equal(modeOf(join(dir, 'multi', 'sub')).toString(8), '775');
      assert.equal(modeOf(join(dir, 'multi', 'sub', 'a.json')).toString(8), '664');
    });
  }
});
