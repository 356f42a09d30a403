import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DependencyRecorder, ResultCache } from '../cache/index.js';
import type { CommandParams } from '../protocol/index.js';
import { cacheKeyOf, CommandRunner, statSyncDepIo, type CachedOutput, type Executor } from './command-runner.js';
import type { CommandName, CommandOutcome } from './worker/messages.js';

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

  // Racily clean files up to 256 KiB are re-hashed synchronously, larger ones through fs.promises.
  for (const [name, change, expected] of [
    ['a large racily clean file, unchanged: re-hashed, served', () => undefined, 'output'],
    [
      'a large racily clean file, same-size edit: re-hashed, dropped',
      (f: string) => writeFileSync(f, big('y')),
      undefined,
    ],
  ] as const) {
    it(name, async () => {
      const file = join(dir, `f${n++}.libsonnet`);
      writeFileSync(file, big('x'));
      const cache = cached(file, false);
      change(file);
      assert.equal(await cache.get('k'), expected);
    });
  }
});

function big(fill: string): string {
  return fill.repeat(300 * 1024);
}

describe('CommandRunner: a save re-renders the latest request ahead of its next call', () => {
  /** Renders `args[0]`'s content; each render waits for release() when `hold` is set. */
  class FileExecutor implements Executor {
    calls = 0;
    hold = false;
    private waiting: (() => void)[] = [];
    async execute(_command: CommandName, p: CommandParams): Promise<CommandOutcome> {
      this.calls++;
      const recorder = new DependencyRecorder();
      const text = Buffer.from(recorder.readFile(join(p.cwd, p.args[0]!))).toString('utf8');
      if (this.hold) await new Promise<void>((r) => this.waiting.push(r));
      return { exitCode: 0, stdout: text, stderr: '', deps: recorder.deps(), cacheable: true };
    }
    release(): void {
      for (const r of this.waiting.splice(0)) r();
    }
  }

  let n = 0;
  function setup(clock?: () => number): { runner: CommandRunner; exec: FileExecutor; file: string; p: CommandParams } {
    const name = `p${n++}.jsonnet`;
    const file = join(dir, name);
    writeFileSync(file, 'v1');
    const exec = new FileExecutor();
    const cache = new ResultCache<CachedOutput>({ maxBytes: 1 << 20, validation: { io: statSyncDepIo } });
    const runner = new CommandRunner(exec, cache, null, undefined, clock);
    return { runner, exec, file, p: params({ args: [name], cwd: dir }) };
  }
  const signal = new AbortController().signal;
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 5));
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await settle();
  };

  it('renders after the change, and the next call is served that render', async () => {
    const { runner, exec, file, p } = setup();
    assert.equal((await runner.renderOnce('show', p, signal)).output.stdout, 'v1');
    writeFileSync(file, 'v2 longer');
    runner.filesChanged([file]);
    assert.equal(exec.calls, 2, 'rendered without a request');
    await settle();
    const next = await runner.renderOnce('show', p, signal);
    assert.deepEqual([next.output.stdout, next.cached, exec.calls], ['v2 longer', true, 2]);
  });

  it('a call made while that render runs waits for it instead of rendering again', async () => {
    const { runner, exec, file, p } = setup();
    await runner.renderOnce('show', p, signal);
    exec.hold = true;
    writeFileSync(file, 'v2 longer');
    runner.filesChanged([file]);
    const next = runner.renderOnce('show', p, signal);
    await settle();
    exec.release();
    const got = await next;
    assert.deepEqual([got.output.stdout, got.cached, got.stored, exec.calls], ['v2 longer', false, true, 2]);
  });

  it('never stale: a file edited again during that render is rendered again for the call', async () => {
    const { runner, exec, file, p } = setup();
    await runner.renderOnce('show', p, signal);
    exec.hold = true;
    writeFileSync(file, 'v2 longer');
    runner.filesChanged([file]);
    writeFileSync(file, 'v3 longer still');
    const next = runner.renderOnce('show', p, signal);
    await settle();
    exec.hold = false;
    exec.release();
    assert.deepEqual([(await next).output.stdout, exec.calls], ['v3 longer still', 3]);
  });

  it('a change no recent request read, or one made while a render runs, starts nothing', async () => {
    const { runner, exec, file, p } = setup();
    await runner.renderOnce('show', p, signal);
    runner.filesChanged([join(dir, 'unrelated.libsonnet')]);
    assert.equal(exec.calls, 1);
    exec.hold = true;
    writeFileSync(file, 'v2 longer');
    const busy = runner.renderOnce('show', params({ args: [p.args[0]!], cwd: dir, flags: { x: true } }), signal);
    await until(() => exec.calls === 2);
    runner.filesChanged([file]);
    assert.equal(exec.calls, 2, 'only the client render');
    exec.release();
    await busy;
  });

  it('forgets a request not called for 10 minutes', async () => {
    let now = 0;
    const { runner, exec, file, p } = setup(() => now);
    await runner.renderOnce('show', p, signal);
    now += 10 * 60_000 + 1;
    writeFileSync(file, 'v2 longer');
    runner.filesChanged([file]);
    assert.equal(exec.calls, 1);
  });
});
