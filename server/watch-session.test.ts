import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
function scripted(answers: Answer[]) {
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
        deps: [{ path: '/w/main.jsonnet', exists: true }],
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

  it('an output the cache does not hold is not re-checked (no render loop)', async () => {
    const s = scripted([{ stdout: 'v1\n', cached: false, stored: false }]);
    const ac = new AbortController();
    const done = runWatch(s.runner, new ChangeHub(), 'show', params, s.sink, ac.signal).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 700)); // longer than the settle delay
    ac.abort();
    await done;
    assert.equal(s.calls.length, 1);
  });
});
