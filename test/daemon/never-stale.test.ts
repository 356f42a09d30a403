// Issue 21 items 2 and 4 through the built CLI, with the daemon and with --no-daemon: a result
// (or an error) is never served after a symlink on the path of a read was retargeted, with and
// without --root, for a linked file and a linked directory, an input argument that is a link and
// a link above the root; `show --watch` re-renders when such a link moves; a file of a pseudo
// file system (/proc) is read afresh on every request.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, collect, Sandbox, sleep, waitFor } from './harness.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

describe('never stale (CLI)', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
  });
  after(async () => {
    await sb.cleanup();
  });

  const relink = (link: string, target: string): void => {
    unlinkSync(link);
    symlinkSync(target, link);
  };

  for (const mode of MODES)
    for (const rooted of [true, false]) {
      const label = `${mode.name}, ${rooted ? 'with' : 'without'} --root`;
      it(`a retargeted file link is followed at once (${label})`, async () => {
        const dir = join(sb.work, `file-${mode.name}-${rooted}`);
        mkdirSync(join(dir, 'repo'), { recursive: true });
        writeFileSync(join(dir, 'repo', 'a.libsonnet'), "'A'");
        writeFileSync(join(dir, 'repo', 'b.libsonnet'), "'B'");
        writeFileSync(join(dir, 'outside.libsonnet'), "'OUT'");
        writeFileSync(join(dir, 'repo', 'main.jsonnet'), "{ v: import 'link.libsonnet' }");
        symlinkSync('a.libsonnet', join(dir, 'repo', 'link.libsonnet'));
        const show = (): ReturnType<Sandbox['run']> =>
          sb.run(['jsonnet', ...mode.flags, ...(rooted ? ['--root', '.'] : []), 'main.jsonnet'], {
            cwd: join(dir, 'repo'),
          });
        assert.match((await show()).stdout, /"v": "A"/);
        relink(join(dir, 'repo', 'link.libsonnet'), 'b.libsonnet');
        assert.match((await show()).stdout, /"v": "B"/);
        relink(join(dir, 'repo', 'link.libsonnet'), '../outside.libsonnet');
        const out = await show();
        if (rooted) {
          assert.notEqual(out.code, 0);
          assert.match(out.stderr, /"link\.libsonnet": outside the root/);
        } else assert.match(out.stdout, /"v": "OUT"/);
        // The reverse: an error (or a result) cached before the link is fixed is not served after.
        relink(join(dir, 'repo', 'link.libsonnet'), 'a.libsonnet');
        const fixed = await show();
        assert.equal(fixed.code, 0, fixed.stderr);
        assert.match(fixed.stdout, /"v": "A"/);
      });

      it(`a retargeted directory link is followed at once (${label})`, async () => {
        const dir = join(sb.work, `dir-${mode.name}-${rooted}`);
        for (const sub of ['one', 'two']) {
          mkdirSync(join(dir, 'repo', sub), { recursive: true });
          writeFileSync(join(dir, 'repo', sub, 'v.libsonnet'), `'${sub}'`);
        }
        mkdirSync(join(dir, 'out'), { recursive: true });
        writeFileSync(join(dir, 'out', 'v.libsonnet'), "'out'");
        writeFileSync(join(dir, 'repo', 'main.jsonnet'), "{ v: import 'lib/v.libsonnet' }");
        symlinkSync('one', join(dir, 'repo', 'lib'));
        const show = (): ReturnType<Sandbox['run']> =>
          sb.run(['jsonnet', ...mode.flags, ...(rooted ? ['--root', '.'] : []), 'main.jsonnet'], {
            cwd: join(dir, 'repo'),
          });
        assert.match((await show()).stdout, /"v": "one"/);
        relink(join(dir, 'repo', 'lib'), 'two');
        assert.match((await show()).stdout, /"v": "two"/);
        relink(join(dir, 'repo', 'lib'), '../out');
        const out = await show();
        if (rooted) assert.match(out.stderr, /outside the root/);
        else assert.match(out.stdout, /"v": "out"/);
        relink(join(dir, 'repo', 'lib'), 'one');
        assert.match((await show()).stdout, /"v": "one"/);
      });
    }

  for (const mode of MODES) {
    it(`an input argument that is itself a link is a dependency (${mode.name}, --root)`, async () => {
      const dir = join(sb.work, `arg-link-${mode.name}`);
      mkdirSync(join(dir, 'repo'), { recursive: true });
      writeFileSync(join(dir, 'repo', 'a.jsonnet'), "{ v: 'A' }");
      writeFileSync(join(dir, 'repo', 'b.jsonnet'), "{ v: 'B' }");
      // The same bytes as a.jsonnet, outside the root: only the link says the answer changed.
      writeFileSync(join(dir, 'outside.jsonnet'), "{ v: 'A' }");
      symlinkSync('a.jsonnet', join(dir, 'repo', 'main.jsonnet'));
      const show = (): ReturnType<Sandbox['run']> =>
        sb.run(['jsonnet', ...mode.flags, '--root', '.', 'main.jsonnet'], { cwd: join(dir, 'repo') });
      assert.match((await show()).stdout, /"v": "A"/);
      relink(join(dir, 'repo', 'main.jsonnet'), 'b.jsonnet');
      assert.match((await show()).stdout, /"v": "B"/);
      relink(join(dir, 'repo', 'main.jsonnet'), 'a.jsonnet');
      assert.match((await show()).stdout, /"v": "A"/);
      relink(join(dir, 'repo', 'main.jsonnet'), '../outside.jsonnet');
      const out = await show();
      assert.notEqual(out.code, 0);
      assert.match(out.stderr, /main\.jsonnet: outside the root/);
    });

    it(`a link above the root, retargeted, is followed at once (${mode.name})`, async () => {
      const dir = join(sb.work, `root-link-${mode.name}`);
      for (const r of ['A', 'B']) {
        mkdirSync(join(dir, `repo${r}`), { recursive: true });
        // Identical main files: only the library the link leads to differs.
        writeFileSync(join(dir, `repo${r}`, 'main.jsonnet'), "{ v: import 'lib.libsonnet' }");
        writeFileSync(join(dir, `repo${r}`, 'lib.libsonnet'), `'${r}'`);
      }
      symlinkSync('repoA', join(dir, 'link'));
      const show = (): ReturnType<Sandbox['run']> =>
        sb.run(['jsonnet', ...mode.flags, '--root', 'link', 'link/main.jsonnet'], { cwd: dir });
      assert.match((await show()).stdout, /"v": "A"/);
      relink(join(dir, 'link'), 'repoB');
      assert.match((await show()).stdout, /"v": "B"/);
      relink(join(dir, 'link'), 'repoA');
      assert.match((await show()).stdout, /"v": "A"/);
    });
  }

  it('show --watch re-renders when a link it depends on is retargeted (an import link, a link above the root)', async () => {
    const dir = join(sb.work, 'watch-links');
    for (const r of ['A', 'B']) {
      mkdirSync(join(dir, `repo${r}`), { recursive: true });
      writeFileSync(
        join(dir, `repo${r}`, 'main.jsonnet'),
        "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: import 'link.libsonnet' } }",
      );
      writeFileSync(join(dir, `repo${r}`, 'one.libsonnet'), `'${r.toLowerCase()}-one'`);
      writeFileSync(join(dir, `repo${r}`, 'two.libsonnet'), `'${r.toLowerCase()}-two'`);
      symlinkSync('one.libsonnet', join(dir, `repo${r}`, 'link.libsonnet'));
    }
    symlinkSync('repoA', join(dir, 'root'));
    const watch = sb.spawnCli(['show', '--watch', '--root', 'root', 'root/main.jsonnet'], { cwd: dir });
    let out = '';
    watch.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    const done = collect(watch);
    const seen = (name: string) => () => (out.includes(`name: ${name}`) ? true : undefined);
    await waitFor('the first render', seen('a-one'), 30_000);
    relink(join(dir, 'repoA', 'link.libsonnet'), 'two.libsonnet');
    await waitFor('a re-render after the import link moved', seen('a-two'), 30_000);
    relink(join(dir, 'root'), 'repoB');
    await waitFor('a re-render after the link above the root moved', seen('b-one'), 30_000);
    watch.kill('SIGINT');
    assert.equal((await done).code, 130);
  });

  for (const mode of MODES)
    it(`a /proc file is read afresh on every request (${mode.name})`, async () => {
      const dir = join(sb.work, `proc-${mode.name}`);
      mkdirSync(dir, { recursive: true });
      // /proc/uptime has centisecond resolution: two reads 50 ms apart always differ.
      writeFileSync(join(dir, 'main.jsonnet'), "{ up: importstr '/proc/uptime' }");
      const read = async (): Promise<string> => {
        const r = await sb.run(['jsonnet', ...mode.flags, 'main.jsonnet'], { cwd: dir });
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      const first = await read();
      await sleep(50);
      const second = await read();
      assert.notEqual(second, first);
    });
});
