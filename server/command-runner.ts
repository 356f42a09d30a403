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
import { resolve } from 'node:path';
import { JobCancelledError } from './worker/pool.js';
import { knownStdoutBytes, withStdoutBytes } from './worker/stdout-bytes.js';
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
 * this way). Re-hashing a racily clean file is synchronous too when the file is small (the file
 * just saved, right after an edit: asynchronously its lstat, open, stat, reads and close were six
 * thread-pool hops, 5-60 ms under load before an edit's output could be served, for well under
 * a millisecond of work); a large file's hash and a directory's listing stay asynchronous, so they
 * never hold up cancels on the main thread for long.
 */
const SYNC_HASH_MAX_BYTES = 256 * 1024;

export const statSyncDepIo: AsyncDepIo = {
  stat: (path) => Promise.resolve(realSyncIo.stat(path)),
  hash: (path) => {
    const probe = realSyncIo.stat(path);
    return probe.kind === 'present' && probe.stat.isFile && probe.stat.size <= SYNC_HASH_MAX_BYTES
      ? Promise.resolve(realSyncIo.hash(path))
      : realAsyncIo.hash(path);
  },
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

/** What renderOnce answers. */
export interface Rendered {
  output: CachedOutput;
  cached: boolean;
  stored: boolean;
  deps: CommandOutcome['deps'];
}

/** A request a client made lately: re-rendered ahead of its next call when one of its files changes. */
interface RecentRequest {
  command: CommandName;
  params: CommandParams;
  paths: Set<string>;
  at: number;
}

/** How many recent requests are remembered for prerendering, and for how long after their last call. */
const PRERENDER_REQUESTS = 8;
const PRERENDER_WITHIN_MS = 10 * 60_000;

export class CommandRunner {
  /** Renders under way, by cache key: a request for the same key waits for one instead of starting another. */
  private readonly inflight = new Map<string, Promise<Rendered>>();
  /** Cacheable requests served lately, least recent first (see filesChanged). */
  private readonly recent = new Map<string, RecentRequest>();
  /** Renders executing now, for clients or ahead of them. */
  private running = 0;

  constructor(
    readonly executor: Executor,
    private readonly cache: ResultCache<CachedOutput> | null,
    private readonly watcher: FileWatcher | null,
    private readonly remoteCheck?: RemoteCheck,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One render: cached or executed. Returns the outcome's deps too, for --watch. */
  async renderOnce(command: CommandName, params: CommandParams, signal: AbortSignal): Promise<Rendered> {
    if (!this.cache) return this.execute('', command, params, signal);
    const key = cacheKeyOf(command, params);
    // Taken before the check: a render that ends during it has stored a newer entry than the one checked.
    const runningBefore = this.inflight.get(key);
    const hit = await this.validHit(key);
    if (hit) return this.remember(key, command, params, { ...hit, cached: true });
    // A render of this very request is under way (started after a save, or for another client):
    // wait for it, then ask the validated cache again, so what it read is checked like any hit.
    const pending = this.inflight.get(key) ?? runningBefore;
    if (pending) {
      await abortable(
        pending.catch(() => undefined),
        signal,
      );
      const joined = await this.validHit(key);
      if (joined) return this.remember(key, command, params, { ...joined, cached: false });
    }
    return this.remember(key, command, params, await this.execute(key, command, params, signal));
  }

  /**
   * Files changed (the watcher's debounced event): re-render, ahead of its next call, the most
   * recent request that read one of them, so an edit's render runs while the user's next command
   * starts (a CLI's start-up and round trip, ~0.1 s) instead of after it. Bounded: one render at a
   * time, only when nothing else renders, only for requests served in the last 10 minutes, never
   * for outputs that used remote inputs. Never stale: a request takes the result only through the
   * validated cache (renderOnce), so a file changed again during the render is rendered again.
   */
  filesChanged(paths: string[]): void {
    if (!this.cache || this.running > 0) return;
    const changed = paths.map((p) => resolve(p));
    const now = this.clock();
    for (const [key, request] of [...this.recent].reverse()) {
      if (now - request.at > PRERENDER_WITHIN_MS) {
        this.recent.delete(key);
        continue;
      }
      if (this.inflight.has(key) || !changed.some((p) => request.paths.has(p))) continue;
      // No client waits on it: a failure (or the daemon's shutdown) is left to the next request to meet.
      this.execute(key, request.command, request.params, new AbortController().signal).catch(() => undefined);
      return;
    }
  }

  private async validHit(key: string): Promise<Omit<Rendered, 'cached'> | undefined> {
    const hit = await this.cache!.get(key);
    if (!hit) return undefined;
    const remoteValid =
      !hit.remote?.deps.length || !this.remoteCheck || (await this.remoteCheck(hit.remote.deps, hit.remote.policy));
    return remoteValid ? { output: hit, stored: true, deps: this.cache!.depsOf(key) ?? [] } : undefined;
  }

  private remember(key: string, command: CommandName, params: CommandParams, rendered: Rendered): Rendered {
    this.recent.delete(key);
    if (rendered.stored && !rendered.output.remote?.deps.length) {
      const paths = new Set(rendered.deps.map((d) => resolve(d.path)));
      this.recent.set(key, { command, params, paths, at: this.clock() });
      for (const oldest of this.recent.keys()) {
        if (this.recent.size <= PRERENDER_REQUESTS) break;
        this.recent.delete(oldest);
      }
    }
    return rendered;
  }

  /** Executes a render (key '' when there is no cache), stores its outcome, and lets others join it while it runs. */
  private execute(key: string, command: CommandName, params: CommandParams, signal: AbortSignal): Promise<Rendered> {
    this.running++;
    const work = this.executeAndStore(key, command, params, signal).finally(() => {
      this.running--;
      if (this.inflight.get(key) === work) this.inflight.delete(key);
    });
    if (key) this.inflight.set(key, work);
    return work;
  }

  private async executeAndStore(
    key: string,
    command: CommandName,
    params: CommandParams,
    signal: AbortSignal,
  ): Promise<Rendered> {
    const outcome = await abortable(this.executor.execute(command, params, signal), signal);
    const bytes = knownStdoutBytes(outcome);
    const output: CachedOutput = bytes
      ? withStdoutBytes<CachedOutput>({ exitCode: outcome.exitCode, stderr: outcome.stderr }, bytes)
      : { exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr };
    if (outcome.remote?.deps.length) output.remote = { deps: outcome.remote.deps, policy: outcome.remote.policy };
    if (this.cache && outcome.cacheable) {
      this.cache.set(
        key,
        output,
        outcome.deps,
        // The string and its UTF-8 bytes (stdoutBytes) are both kept while the entry lives (a string
        // decoded from bytes only once something reads it: counted all the same).
        2 * (bytes?.byteLength ?? Buffer.byteLength(output.stdout)) +
          Buffer.byteLength(output.stderr) +
          256 * (outcome.deps.length + 1),
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
  const known = knownStdoutBytes(output);
  if (known) return Buffer.from(known.buffer, known.byteOffset, known.byteLength);
  let bytes = encodedStdout.get(output);
  if (bytes === undefined) encodedStdout.set(output, (bytes = Buffer.from(output.stdout, 'utf8')));
  return bytes;
}

export function writeOutput(sink: OutputSink, output: CachedOutput): void {
  if (sink.writeBytes) {
    const bytes = stdoutBytes(output);
    if (bytes.length) sink.writeBytes('stdout', bytes);
    if (output.stderr.length) sink.writeBytes('stderr', Buffer.from(output.stderr, 'utf8'));
    return;
  }
  for (let i = 0; i < output.stdout.length; i += CHUNK) sink.write('stdout', output.stdout.slice(i, i + CHUNK));
  for (let i = 0; i < output.stderr.length; i += CHUNK) sink.write('stderr', output.stderr.slice(i, i + CHUNK));
}
