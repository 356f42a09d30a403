import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DependencyRecorder, ResultCache } from '../cache/index.js';
import type { CommandParams } from '../protocol/index.js';
import { cacheKeyOf, statSyncDepIo } from './command-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'kcfg-runner-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const params = (extra: Partial<CommandParams> = {}): CommandParams => ({
  requestId: 'a',
  args: ['x.jsonnet'],
  flags: {},
  cwd: '/',
  env: {},
  tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'auto', noColor: false, forceColor: null },
  ...extra,
});

describe('cacheKeyOf', () => {
  it('ignores the request id and the client build (the daemon serves only its own build)', () => {
    const key = cacheKeyOf('show', params());
    assert.equal(cacheKeyOf('show', params({ requestId: 'b' })), key);
    assert.equal(cacheKeyOf('show', params({ client: { protocolVersion: 1, buildId: 'x' } })), key);
    assert.notEqual(cacheKeyOf('show', params({ args: ['y.jsonnet'] })), key);
    assert.notEqual(cacheKeyOf('eval', params()), key);
  });
});

describe('the result cache with statSyncDepIo (the daemon’s dependency checks)', () => {
  /** A cache entry depending on `file` as it is now; `oldFile` first ages its mtime a minute (settled, not racily clean). */
  function cached(file: string, oldFile: boolean): ResultCache<string> {
    if (oldFile) utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const recorder = new DependencyRecorder();
    recorder.readFile(file);
    const cache = new ResultCache<string>({ maxBytes: 1 << 20, validation: { io: statSyncDepIo } });
    cache.set('k', 'output', recorder.deps(), 10);
    return cache;
  }

  const cases: [string, boolean, (file: string) => void, string | undefined][] = [
    ['unchanged, settled file: served', true, () => undefined, 'output'],
    ['unchanged, racily clean file: re-hashed, served', false, () => undefined, 'output'],
    ['content edited: dropped', true, (f) => writeFileSync(f, 'changed content'), undefined],
    [
      'same-size edit, mtime set back a minute: dropped',
      true,
      (f) => {
        writeFileSync(f, 'other'); // same size as 'first'
        utimesSync(f, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      },
      undefined,
    ],
    ['same-size edit of a racily clean file: re-hashed, dropped', false, (f) => writeFileSync(f, 'other'), undefined],
    ['file deleted: dropped', true, (f) => rmSync(f), undefined],
  ];
  let n = 0;
  for (const [name, oldFile, change, expected] of cases) {
    it(name, async () => {
      const file = join(dir, `f${n++}.libsonnet`);
      writeFileSync(file, 'first');
      const cache = cached(file, oldFile);
      change(file);
      assert.equal(await cache.get('k'), expected);
    });
  }
});
