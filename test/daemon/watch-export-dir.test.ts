/**
 * `show --watch --export-dir DIR` (issue 23): each render replaces the
 * directory's content (files of objects that went away are removed), files
 * the user put there are left alone, and a re-render that would overwrite one
 * of them fails with a clear error while the watch goes on. Real daemon and
 * one-shot process, real files.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, collect, Sandbox, sleep, waitFor } from './harness.js';

/**
 * Writes the input until `probe` holds: the watcher may still be setting up when the first
 * render's "watching" line is out (a write then goes unseen), so an unseen write is made again.
 */
async function editUntil(what: string, edit: () => void, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 20; i++) {
    edit();
    for (let j = 0; j < 40; j++) {
      if (probe()) return;
      await sleep(50);
    }
  }
  throw new Error(`timed out waiting for ${what}`);
}

const app = (names: string[], value: string): string =>
  JSON.stringify({
    items: names.map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: value } })),
  });

describe('show --watch --export-dir', { skip: !BUILT && 'run npm run build first', timeout: 90_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
  });
  after(() => sb.cleanup());

  for (const mode of ['daemon', 'no-daemon']) {
    it(`replaces the directory's content on each render (${mode})`, async () => {
      const input = `app-${mode}.jsonnet`;
      const out = join(sb.work, `out-${mode}`);
      const files = (): string[] => readdirSync(out).sort();
      writeFileSync(join(sb.work, input), app(['a', 'b'], '1'));
      const child = sb.spawnCli([
        ...(mode === 'no-daemon' ? ['--no-daemon'] : []),
        'show',
        '--watch',
        '--export-dir',
        `out-${mode}`,
        '--export-filename-format',
        '{{.metadata.name}}',
        input,
      ]);
      let err = '';
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
      const done = collect(child);
      const rounds = (): number => err.split('watching').length - 1;
      await waitFor('the first render', () => rounds() >= 1 || undefined, 30_000);
      assert.deepEqual(files(), ['.kubecfg-export', 'a.yaml', 'b.yaml']);
      writeFileSync(join(out, 'notes.txt'), 'mine\n');

      // b goes away, a changes, c comes: the directory follows, notes.txt stays.
      const same = (want: string[]): boolean => JSON.stringify(files()) === JSON.stringify(want);
      await editUntil(
        'the second render',
        () => writeFileSync(join(sb.work, input), app(['a', 'c'], '2')),
        () => same(['.kubecfg-export', 'a.yaml', 'c.yaml', 'notes.txt']),
      );
      assert.deepEqual(files(), ['.kubecfg-export', 'a.yaml', 'c.yaml', 'notes.txt']);
      assert.match(readFileSync(join(out, 'a.yaml'), 'utf8'), /v: "2"/);
      assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'mine\n');

      // A file kubecfg did not write is never overwritten: that render fails, the watch goes on.
      writeFileSync(join(out, 'd.yaml'), 'hand written\n');
      await editUntil(
        'the refused render',
        () => writeFileSync(join(sb.work, input), app(['a', 'd'], '3')),
        () => err.includes('d.yaml'),
      );
      assert.match(err, /.*export file "d.yaml" exists and was not written by kubecfg/);
      assert.equal(readFileSync(join(out, 'd.yaml'), 'utf8'), 'hand written\n');
      assert.match(readFileSync(join(out, 'a.yaml'), 'utf8'), /v: "2"/, 'a refused render changes nothing');

      await editUntil(
        'the next render',
        () => writeFileSync(join(sb.work, input), app(['a'], '4')),
        // a.yaml is written before the stale c.yaml is removed: wait for both.
        () =>
          /v: "4"/.test(readFileSync(join(out, 'a.yaml'), 'utf8')) &&
          same(['.kubecfg-export', 'a.yaml', 'd.yaml', 'notes.txt']),
      );
      assert.deepEqual(files(), ['.kubecfg-export', 'a.yaml', 'd.yaml', 'notes.txt']);
      assert.doesNotMatch(err, /is not empty/);
      child.kill('SIGINT');
      assert.equal((await done).code, 130);
    });
  }

  it('plain show --export-dir still wants an empty directory, as kubecfg', async () => {
    writeFileSync(join(sb.work, 'plain.jsonnet'), app(['a'], '1'));
    let r = await sb.run(['show', '--export-dir', 'plain-out', 'plain.jsonnet']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(join(sb.work, 'plain-out')), ['v1.ConfigMap-default.a.yaml']);
    r = await sb.run(['show', '--export-dir', 'plain-out', 'plain.jsonnet']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /export directory "plain-out" is not empty/);
  });
});
