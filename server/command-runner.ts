/**
 * Runs one command for a client: serve a validated result-cache hit, or
 * execute (worker pool in the daemon, in-process for --no-daemon), cache the
 * outcome with its deps, feed the deps to the file watcher, and stream the
 * output to the sink. `show --watch` loops here (see watch-session.ts).
 *
 * Invariant: a cache hit is served only after ResultCache.get re-validated
 * every dependency (content digests; hazard 32), whatever the watcher said.
 */
import { stableDigest, type AsyncDepIo, type FileWatcher, type ResultCache } from '../cache/index.js';
import { linkOutcomeSync, realAsyncIo, realSyncIo } from '../cache/dep-validation.js';
import type { CommandParams, CommandResult } from '../protocol/index.js';
import { JobCancelledError } from './worker/pool.js';
import type { CommandName, CommandOutcome } from './worker/messages.js';
import type { FetchPolicy, RemoteDep } from './remote-inputs/remote-types.js';

export interface Executor {
  execute(command: CommandName, params: CommandParams, signal: AbortSignal): Promise<CommandOutcome>;
}

export interface OutputSink {
  write(stream: 'stdout' | 'stderr', data: string): void;
  /** Raw UTF-8 bytes, when the sink can pass them on unchanged (the daemon's framed stream). */
  writeBytes?(stream: 'stdout' | 'stderr', data: Buffer): void;
}

export interface CachedOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** Remote facts (URL bodies, tags) the output used: re-checked before a hit is served. */
  remote?: { deps: RemoteDep[]; policy: FetchPolicy };
}

/** Re-checks remote deps (server/remote-inputs/remote-fetcher.ts RemoteInputs.stillValid). */
export type RemoteCheck = (deps: RemoteDep[], policy: FetchPolicy) => Promise<boolean>;

/**
 * The result cache's dependency checks as the daemon runs them: the stat of each file is taken
 * synchronously (one statx, no thread-pool hop and no event-loop turn per file: a warm `show`
 * of 300 files checked its deps in 13-43 ms through fs.promises on a loaded machine, 1-5 ms
 * this way); re-hashing a racily clean file and re-listing a directory stay asynchronous,
 * since they read whole files and must not hold up cancels on the main thread.
 */
export const statSyncDepIo: AsyncDepIo = {
  stat: (path) => Promise.resolve(realSyncIo.stat(path)),
  hash: (path) => realAsyncIo.hash(path),
  list: (path) => realAsyncIo.list(path),
  link: (path) => Promise.resolve(linkOutcomeSync(path)),
};

/** Rejects with JobCancelledError as soon as `signal` aborts, so a cancel answers without waiting for the worker. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new JobCancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new JobCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * The cache key: everything that can change the output besides file contents (those are deps).
 * The client's build is left out: the daemon only serves clients of its own build.
 */
export function cacheKeyOf(command: CommandName, params: CommandParams): string {
  const { requestId: _ignored, client: _checkedBeforeRunning, ...rest } = params;
  return stableDigest({ command, ...rest });
}

export class CommandRunner {
  constructor(
    readonly executor: Executor,
    private readonly cache: ResultCache<CachedOutput> | null,
    private readonly watcher: FileWatcher | null,
    private readonly remoteCheck?: RemoteCheck,
  ) {}

  /** One render: cached or executed. Returns the outcome's deps too, for --watch. */
  async renderOnce(
    command: CommandName,
    params: CommandParams,
    signal: AbortSignal,
  ): Promise<{ output: CachedOutput; cached: boolean; stored: boolean; deps: CommandOutcome['deps'] }> {
    const key = this.cache ? cacheKeyOf(command, params) : '';
    if (this.cache) {
      const hit = await this.cache.get(key);
      const remoteValid =
        !hit?.remote?.deps.length || !this.remoteCheck || (await this.remoteCheck(hit.remote.deps, hit.remote.policy));
      if (hit && remoteValid) return { output: hit, cached: true, stored: true, deps: this.cache.depsOf(key) ?? [] };
    }
    const outcome = await abortable(this.executor.execute(command, params, signal), signal);
    const output: CachedOutput = { exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr };
    if (outcome.remote?.deps.length) output.remote = { deps: outcome.remote.deps, policy: outcome.remote.policy };
    if (this.cache && outcome.cacheable) {
      this.cache.set(
        key,
        output,
        outcome.deps,
        // The string and its UTF-8 bytes (stdoutBytes) are both kept while the entry lives.
        2 * Buffer.byteLength(output.stdout) + Buffer.byteLength(output.stderr) + 256 * (outcome.deps.length + 1),
      );
    }
    if (this.watcher && outcome.deps.length) this.watcher.watchDeps(outcome.deps);
    // stored: the validated cache holds this output now (not refused as uncacheable or too large).
    const stored = this.cache !== null && outcome.cacheable && this.cache.depsOf(key) !== undefined;
    return { output, cached: false, stored, deps: outcome.deps };
  }

  async run(
    command: CommandName,
    params: CommandParams,
    sink: OutputSink,
    signal: AbortSignal,
  ): Promise<CommandResult> {
    const { output, cached } = await this.renderOnce(command, params, signal);
    writeOutput(sink, output);
    return { exitCode: output.exitCode, cached };
  }
}

const CHUNK = 64 * 1024;

/**
 * The UTF-8 bytes of an output's stdout, encoded once per cached output and kept beside it: a warm
 * repeat then costs the daemon no re-encoding (7 MB took ~5-10 ms per request) and the framed
 * stream writes them as they are.
 */
const encodedStdout = new WeakMap<CachedOutput, Buffer>();

export function stdoutBytes(output: CachedOutput): Buffer {
  let bytes = encodedStdout.get(output);
  if (bytes === undefined) encodedStdout.set(output, (bytes = Buffer.from(output.stdout, 'utf8')));
  return bytes;
}

export function writeOutput(sink: OutputSink, output: CachedOutput): void {
  if (sink.writeBytes) {
    if (output.stdout.length) sink.writeBytes('stdout', stdoutBytes(output));
    if (output.stderr.length) sink.writeBytes('stderr', Buffer.from(output.stderr, 'utf8'));
    return;
  }
  for (let i = 0; i < output.stdout.length; i += CHUNK) sink.write('stdout', output.stdout.slice(i, i + CHUNK));
  for (let i = 0; i < output.stderr.length; i += CHUNK) sink.write('stderr', output.stderr.slice(i, i + CHUNK));
}
