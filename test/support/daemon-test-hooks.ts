/**
 * Test-only render behaviours, outside the product: the daemon imports this
 * module only when started with KUBECFG_DAEMON_TEST_HOOKS=1 and
 * KUBECFG_DAEMON_TEST_HOOK_MODULE naming it (the test harness sets both; see
 * server/commands/test-hook.ts). An input file named `*.kubecfg-test-hook`
 * whose first word picks one. They let the daemon tests
 * exercise cancellation and worker crashes without depending on how fast the
 * Jsonnet engine is:
 *   spin      — busy-loop, polling shouldStop like the evaluator does
 *   hang      — busy-loop, ignoring shouldStop (forces terminate after grace)
 *   oom       — allocate until the worker's heap limit kills it
 *   echo TEXT — print TEXT (a fast, cacheable render)
 *   throw TEXT — throw an Error(TEXT): a bug inside a command, as the daemon and --no-daemon report it
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandOutcome } from '../../server/worker/messages.js';

export function runTestHook(file: string, cwd: string, shouldStop: () => boolean): CommandOutcome {
  const text = readFileSync(resolve(cwd, file), 'utf8').trim();
  const [word, ...rest] = text.split(/\s+/);
  const done = (stdout: string): CommandOutcome => ({ exitCode: 0, stdout, stderr: '', deps: [], cacheable: false });
  switch (word) {
    case 'spin':
      while (!shouldStop()) {
        // burn CPU like a long render; the evaluator polls shouldStop the same way
      }
      return { exitCode: 1, stdout: '', stderr: 'ERROR evaluation cancelled\n', deps: [], cacheable: false };
    case 'hang':
      for (;;) {
        // never polls: only terminate() ends this
      }
    case 'oom': {
      const hoard: unknown[] = [];
      for (;;) hoard.push(new Array(100_000).fill({ x: hoard.length }));
    }
    case 'echo':
      return done(rest.join(' ') + '\n');
    case 'throw':
      throw new Error(rest.join(' '));
    default:
      return {
        exitCode: 1,
        stdout: '',
        stderr: `ERROR ${file}: unknown test hook "${word ?? ''}"\n`,
        deps: [],
        cacheable: false,
      };
  }
}
