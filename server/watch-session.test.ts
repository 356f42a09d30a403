import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DependencyRecorder, type FileDep } from '../cache/index.js';
import type { CommandParams } from '../protocol/index.js';
import type { CommandRunner, OutputSink } from './command-runner.js';
import { ChangeHub, runWatch } from './watch-session.js';

const params = {
  requestId: 'w',
  args: ['main.jsonnet'],
  flags: {},
  cwd: '/w',
  env: {},
  tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'auto', noColor: false, forceColor: null },
} as CommandParams;

type Answer = { stdout: string; cached: boolean; stored: boolean };

/** A runner that answers renderOnce from a script, and a sink that records what the watch printed. */
function scripted(answers: Answer[], deps: FileDep[] = [{ path: '/w/main.jsonnet', exists: true }]) {
  const calls: Answer[] = [];
  const printed: string[] = [];
  const runner = {
    renderOnce: async () => {
      const a = answers.shift();
      if (a === undefined) return new Promise<never>(() => undefined);
      calls.push(a);
      return {
        output: { exitCode: 0, stdout: a.stdout, stderr: '' },
        cached: a.cached,
        stored: a.stored,
        deps,
      };
    },
  } as unknown as CommandRunner;
  const sink: OutputSink = { write: (_s, d) => void printed.push(d) };
  return { runner, sink, calls, printed };
}

describe('show --watch re-checks once the watcher has settled', () => {
  it('an edit the watcher missed is caught by the cache re-check and printed as a re-render', async () => {
    const s = scripted([
      { stdout: 'v1\n', cached: false, stored: true },
      { stdout: 'v2\n', cached: false, stored: true }, // the re-check: the cache missed, a dep changed
      { stdout: 'v2\n', cached: true, stored: true }, // the re-render reads the stored result
      { stdout: 'v2\n', cached: true, stored: true }, // its own re-check: a hit, nothing printed
    ]);
    const ac = new AbortController();
    const done = runWatch(s.runner, new ChangeHub(), 'show', params, s.sink, ac.signal).catch((e: Error) => e);
    // After the fourth answer (a hit) the watch waits for change events: wait until all four are used.
    for (let i = 0; i < 100 && s.calls.length < 4; i++) await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    await done;
    assert.equal(s.calls.length, 4);
    const out = s.printed.join('');
    assert.equal(out.match(/^v\d\n/gm)?.join(''), 'v1\nv2\n', out);
    assert.match(out, /re-rendering at .* \(changed: a file changed while the watch was starting\)/);
  });

  // --no-daemon has no result cache: its output is re-checked against the files it read instead.
  it('an output no cache holds is re-checked against the files it read; a dep that never validates gives one re-render, no loop', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kcfg-watch-'));
    try {
      const file = join(dir, 'main.jsonnet');
      writeFileSync(file, '{}\n');
      await new Promise((r) => setTimeout(r, 20));
      const recorder = new DependencyRecorder();
      recorder.readFile(file);
      const unchanged = scripted([{ stdout: 'v1\n', cached: false, stored: false }], recorder.deps());
      const ac = new AbortController();
      const done = runWatch(unchanged.runner, new ChangeHub(), 'show', params, unchanged.sink, ac.signal).catch(
        (e: Error) => e,
      );
      await new Promise((r) => setTimeout(r, 700)); // longer than the settle delay
      ac.abort();
      await done;
      assert.equal(unchanged.calls.length, 1, 'an unchanged file: no re-render');

      const never = scripted(
        [
          { stdout: 'v1\n', cached: false, stored: false },
          { stdout: 'v1\n', cached: false, stored: false },
        ],
        [{ path: join(dir, 'gone.jsonnet'), exists: true }],
      );
      const ac2 = new AbortController();
      const done2 = runWatch(never.runner, new ChangeHub(), 'show', params, never.sink, ac2.signal).catch(
        (e: Error) => e,
      );
      await new Promise((r) => setTimeout(r, 1200));
      ac2.abort();
      await done2;
      assert.equal(never.calls.length, 2, 'one re-render for the missed edit, then it waits for a change');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
