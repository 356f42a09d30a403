/**
 * `kubecfg show --watch`: render, then re-render whenever a file of the
 * import closure changes (read, probed, or missing-but-looked-for), printing
 * the full output each time. A separator line goes to stderr before each
 * re-render, so stdout stays a clean stream of complete renders. Errors are
 * printed and the watch goes on. Ends only when the client cancels or hangs up.
 *
 * Change events come from the shared ChangeHub (the file watcher, debounced
 * 5 ms). Correctness never depends on them: each re-render still goes through
 * the validated result cache, and once the watcher has settled after a render the
 * watch asks that cache again, so an edit made before the new paths were watched
 * is printed too.
 */
import { resolve } from 'node:path';
import { depsStillValid, type FileDep } from '../cache/index.js';
import type { CommandParams } from '../protocol/index.js';
import { logLine, logStyle } from './commands/output.js';
import { CommandRunner, writeOutput, type OutputSink } from './command-runner.js';
import type { CommandName } from './worker/messages.js';
import { JobCancelledError } from './worker/pool.js';

export type ChangeListener = (paths: string[]) => void;

/** Fans watcher change events out to every watch session (and the cache invalidation). */
export class ChangeHub {
  private readonly listeners = new Set<ChangeListener>();

  emit(paths: string[]): void {
    for (const l of [...this.listeners]) l(paths);
  }

  subscribe(l: ChangeListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  get sessions(): number {
    return this.listeners.size;
  }
}

/** How long after a render the watch re-checks its dependencies for an edit the watcher missed. */
const WATCH_SETTLE_MS = 300;

function clock(): string {
  return new Date().toISOString().slice(11, 19);
}

export async function runWatch(
  runner: CommandRunner,
  hub: ChangeHub,
  command: CommandName,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<never> {
  let watched = new Set<string>();
  let changed: string[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = hub.subscribe((paths) => {
    const hits = paths.map((p) => resolve(p)).filter((p) => watched.has(p));
    if (hits.length === 0) return;
    changed.push(...hits);
    wake?.();
  });
  // Resolves on a change event, or with 'settle' once `settleMs` pass without one.
  const waitForChange = (settleMs?: number): Promise<'change' | 'settle'> =>
    new Promise((resolveWait, reject) => {
      if (signal.aborted) return reject(new JobCancelledError());
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new JobCancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const finish = (why: 'change' | 'settle'): void => {
        wake = null;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolveWait(why);
      };
      wake = () => finish('change');
      if (changed.length) return finish('change');
      if (settleMs !== undefined) timer = setTimeout(() => finish('settle'), settleMs);
    });
  try {
    let missedEdit = false;
    for (let round = 0; ; round++) {
      if (round > 0) {
        const what = missedEdit ? 'a file changed while the watch was starting' : [...new Set(changed)].join(', ');
        sink.write('stderr', `--- kubecfg show --watch: re-rendering at ${clock()} (changed: ${what}) ---\n`);
      }
      changed = [];
      // A dep that can never validate (a /proc file, a FIFO) would make every re-check a miss:
      // after a re-render for a missed edit, wait for a real change instead of re-checking.
      const afterMissedEdit = missedEdit;
      missedEdit = false;
      let stored = false;
      let readDeps: FileDep[] = [];
      try {
        const { output, deps, ...result } = await runner.renderOnce(command, params, signal);
        stored = result.stored;
        readDeps = deps;
        writeOutput(sink, output);
        if (deps.length) watched = new Set(deps.map((d) => resolve(d.path)));
      } catch (err) {
        if (err instanceof JobCancelledError) throw err;
        sink.write('stderr', logLine(logStyle(params.tty), 'ERROR', (err as Error).message));
      }
      sink.write('stderr', `--- kubecfg show --watch: watching ${watched.size} files; Ctrl-C to stop ---\n`);
      // The watcher starts watching new paths asynchronously, so an edit made just after the
      // render can come before it is watched. Once it has settled, ask the validated result
      // cache once more: a hit means nothing changed (print nothing); a miss is a missed edit.
      // An output no cache holds (--no-daemon has none) is checked against the files it read.
      const recheck = stored || readDeps.length > 0;
      if ((await waitForChange(recheck ? WATCH_SETTLE_MS : undefined)) === 'settle') {
        let fresh = true;
        try {
          fresh = stored ? (await runner.renderOnce(command, params, signal)).cached : await depsStillValid(readDeps);
        } catch (err) {
          if (err instanceof JobCancelledError) throw err;
          fresh = false;
        }
        if (fresh || afterMissedEdit) await waitForChange();
        else missedEdit = changed.length === 0;
      }
    }
  } finally {
    unsubscribe();
  }
}
