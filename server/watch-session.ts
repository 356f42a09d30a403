/**
 * `kubecfg show --watch`: render, then re-render whenever a file of the
 * import closure changes (read, probed, or missing-but-looked-for), printing
 * the full output each time. A separator line goes to stderr before each
 * re-render, so stdout stays a clean stream of complete renders. Errors are
 * printed and the watch goes on. Ends only when the client cancels or hangs up.
 *
 * Change events come from the shared ChangeHub (the file watcher, debounced
 * 50 ms). Correctness never depends on them: each re-render still goes through
 * the validated result cache.
 */
import { resolve } from 'node:path';
import type { CommandParams } from '../protocol/index.js';
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
  try {
    for (let round = 0; ; round++) {
      if (round > 0)
        sink.write(
          'stderr',
          `--- kubecfg show --watch: re-rendering at ${clock()} (changed: ${[...new Set(changed)].join(', ')}) ---\n`,
        );
      changed = [];
      try {
        const { output, deps } = await runner.renderOnce(command, params, signal);
        writeOutput(sink, output);
        if (deps.length) watched = new Set(deps.map((d) => resolve(d.path)));
      } catch (err) {
        if (err instanceof JobCancelledError) throw err;
        sink.write('stderr', `ERROR ${(err as Error).message}\n`);
      }
      sink.write('stderr', `--- kubecfg show --watch: watching ${watched.size} files; Ctrl-C to stop ---\n`);
      await new Promise<void>((resolveWait, reject) => {
        if (signal.aborted) return reject(new JobCancelledError());
        const onAbort = (): void => reject(new JobCancelledError());
        signal.addEventListener('abort', onAbort, { once: true });
        wake = () => {
          wake = null;
          signal.removeEventListener('abort', onAbort);
          resolveWait();
        };
        if (changed.length) wake();
      });
    }
  } finally {
    unsubscribe();
  }
}
