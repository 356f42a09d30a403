// Issue 21 items 2 and 4 through the built CLI, with the daemon and with --no-daemon: a result
// (or an error) is never served after a symlink on the path of a read was retargeted, with and
// without --root, for a linked file and a linked directory; a file of a pseudo file system
// (/proc) is read afresh on every request.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox, sleep } from './harness.js';

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
