/**
 * The render worker pool (hazard 31).
 *
 * - One job per worker at a time; no evaluator state is shared between jobs
 *   or threads.
 * - Affinity: a job's root (the directory of its first input, else its cwd)
 *   hashes to a preferred worker so that worker's in-memory caches stay warm.
 *   If the preferred worker is busy and another is idle, the idle one runs it
 *   (a warm cache is not worth waiting for); otherwise it queues on the
 *   preferred worker.
 * - Each slot is a render host process (render-host.ts) running one worker
 *   thread: a fatal V8 out-of-memory abort ends that process, never the
 *   daemon, whose main thread holds no render data.
 * - Hosts start on demand: the first with the pool, another only when a job finds every started
 *   host busy (an idle host costs ~90 MiB RSS, ~45 MiB PSS, for nothing while one project is
 *   rendered). Affinity then prefers an idle started host over starting the preferred one.
 * - Crash or out-of-memory: the job fails with WorkerCrashedError naming the
 *   limit, the host is replaced, its queued jobs move to the replacement, the
 *   daemon serves on. Besides V8's heap limit, a watchdog reads each busy
 *   host's resident memory from /proc and kills a host past its RSS cap
 *   (memory V8 does not count: external strings, ArrayBuffers, overshoot).
 * - Cancel: the host sets the shared flag to the job id (the evaluator stops
 *   at its next poll); if the job has not finished after the grace period the
 *   host is killed and replaced.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../logger.js';
import { heapLimitOverridden, heapOverrides, workerExecArgv } from './heap-limits.js';
import {
  hostRssBytes,
  processPssBytes,
  rssCapBytes,
  STDERR_TAIL_BYTES,
  looksLikeV8OutOfMemory,
} from './host-memory.js';
import type { CommandName, CommandOutcome, FromHost, RenderJob, ToHost, WorkerCacheReport } from './messages.js';
import type { CommandParams, WorkerStatus } from '../../protocol/index.js';
import type { RemoteSnapshot } from '../remote-inputs/remote-types.js';
import { withStdoutBytes } from './stdout-bytes.js';

/**
 * How long a cancelled render may take to notice the flag before its worker is terminated. A render
 * polls the flag within milliseconds, but on a loaded machine the worker thread may not be scheduled
 * for a while: terminating too early throws away a worker (and its warm caches) for nothing.
 */
const CANCEL_GRACE_MS = 500;

/** How often the watchdog reads the busy hosts' resident memory (one small /proc read each). */
const WATCHDOG_INTERVAL_MS = 100;

export class WorkerCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashedError';
  }
}

export class JobCancelledError extends Error {
  constructor() {
    super('the request was cancelled');
    this.name = 'JobCancelledError';
  }
}

export interface PoolOptions {
  size: number;
  memoryMb: number;
  testHooks: boolean;
  cancelGraceMs?: number;
  logger: Logger;
}

interface PendingJob {
  job: RenderJob;
  resolve: (o: CommandOutcome) => void;
  reject: (e: Error) => void;
  cancelled: boolean;
}

interface Slot {
  index: number;
  host: ChildProcess;
  /** Until the host reports ready, jobs wait in the queue (IPC sent earlier could be lost). */
  ready: boolean;
  threadId: number;
  /** The end of the host's stderr: V8 writes its fatal out-of-memory report there. */
  stderrTail: string;
  current: PendingJob | null;
  queue: PendingJob[];
  served: number;
  /** When the current job was sent, and how long the last one took (performance.now() ms). */
  sentAt: number;
  lastRenderMs: number | undefined;
  heapLimitBytes: number;
  /** Set once we decided to end this worker (terminate or crash): ignore its late messages. */
  retired: boolean;
  killTimer: NodeJS.Timeout | null;
  /** The worker's cache figures as of its last report (after each job, and after its idle collection). */
  caches: WorkerCacheReport[];
}

// fileURLToPath, not .pathname: a checkout whose path has a space would give a host path with %20.
const HOST_PATH = fileURLToPath(new URL('./render-host.js', import.meta.url));

function affinityRoot(params: CommandParams): string {
  const first = params.args.find((a) => a !== '-');
  if (!first) return params.cwd;
  const abs = first.startsWith('/') ? first : `${params.cwd}/${first}`;
  return abs.slice(0, abs.lastIndexOf('/')) || '/';
}

export class WorkerPool {
  /** The started hosts (at most opts.size), each with its fixed index. */
  private readonly slots: Slot[] = [];
  private nextJobId = 1;
  private closed = false;
  private watchdogTimer: NodeJS.Timeout | null = null;
  replaced = 0;
  readonly heapWarnings: string[] = [];

  constructor(private readonly opts: PoolOptions) {
    const overrides = heapOverrides(process.execArgv, process.env.NODE_OPTIONS);
    if (overrides.length) {
      const msg = `heap size flags found (${overrides.join(', ')}); stripped from worker execArgv so resourceLimits apply`;
      this.heapWarnings.push(msg);
      opts.logger.warn(msg);
    }
    this.slots.push(this.spawn(0));
    this.watchdogTimer = setInterval(() => this.watchdog(), WATCHDOG_INTERVAL_MS);
    this.watchdogTimer.unref();
  }

  private spawn(index: number): Slot {
    const host = fork(HOST_PATH, [], {
      execArgv: workerExecArgv(process.execArgv),
      env: {
        // glibc raises its mmap threshold after a large buffer is freed (up to 32 MiB), so the
        // render's multi-MiB output and IPC buffers end up in arenas it never gives back. A fixed
        // threshold keeps them in mmaps returned on free: ~20 MiB less resident per host after
        // kube-prometheus. Ignored by other C libraries; the user's own settings win.
        MALLOC_MMAP_THRESHOLD_: '131072',
        MALLOC_TRIM_THRESHOLD_: '131072',
        ...process.env,
        KUBECFG_RENDER_HOST_MEMORY_MB: String(this.opts.memoryMb),
        KUBECFG_RENDER_HOST_TEST_HOOKS: this.opts.testHooks ? '1' : '0',
      },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const slot: Slot = {
      index,
      host,
      ready: false,
      threadId: 0,
      stderrTail: '',
      current: null,
      queue: [],
      served: 0,
      sentAt: 0,
      lastRenderMs: undefined,
      heapLimitBytes: 0,
      retired: false,
      killTimer: null,
      caches: [],
    };
    host.stderr!.setEncoding('utf8');
    host.stderr!.on('data', (chunk: string) => {
      slot.stderrTail = (slot.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    host.on('message', (msg: FromHost) => this.onMessage(slot, msg));
    host.on('error', (err: Error & { code?: string }) => this.onCrash(slot, err));
    // 'close' (not 'exit'): stderr is complete by then, so a fatal OOM report is seen.
    host.on('close', (code, signal) => this.onHostGone(slot, code, signal));
    // A host blocked in a long render must not keep a shutting-down daemon alive.
    host.unref();
    host.channel?.unref();
    (host.stderr as unknown as { unref?: () => void }).unref?.();
    return slot;
  }

  private onHostGone(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.retired || this.closed) return;
    const tail = slot.stderrTail.trim();
    if (tail)
      this.opts.logger.error({ worker: slot.index, hostPid: slot.host.pid, stderr: tail }, 'render host stderr');
    if (looksLikeV8OutOfMemory(tail))
      this.onCrash(
        slot,
        Object.assign(new Error('JavaScript heap out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }),
      );
    else this.onCrash(slot, new Error(`the render host exited (${signal ? `signal ${signal}` : `code ${code}`})`));
  }

  /** Kills every busy host whose resident memory is past the cap. */
  private watchdog(): void {
    const cap = rssCapBytes(this.opts.memoryMb);
    for (const slot of this.slots) {
      if (!slot.current || slot.retired || slot.host.pid === undefined) continue;
      const rss = hostRssBytes(slot.host.pid);
      if (rss === null || rss <= cap) continue;
      this.onCrash(
        slot,
        Object.assign(new Error(`resident memory ${Math.round(rss / 1048576)} MiB`), { code: 'ERR_RENDER_RSS_LIMIT' }),
      );
    }
  }

  private onMessage(slot: Slot, msg: FromHost): void {
    if (slot.retired) return;
    if (msg.type === 'crashed') {
      this.onCrash(slot, Object.assign(new Error(msg.message), { code: msg.code ?? undefined }));
      return;
    }
    if (msg.type === 'ready') {
      slot.ready = true;
      slot.threadId = msg.threadId;
      slot.heapLimitBytes = msg.heapLimitBytes;
      this.pump(slot);
      if (heapLimitOverridden(msg.heapLimitBytes, this.opts.memoryMb)) {
        const warning = `worker ${slot.index} heap limit is ${Math.round(msg.heapLimitBytes / 1048576)} MiB, above the requested ${this.opts.memoryMb} MiB`;
        this.heapWarnings.push(warning);
        this.opts.logger.warn(warning);
      }
      return;
    }
    slot.caches = msg.caches;
    if (msg.type === 'caches') return;
    const pending = slot.current;
    if (!pending || pending.job.jobId !== msg.jobId) return;
    slot.current = null;
    slot.served++;
    slot.lastRenderMs = performance.now() - slot.sentAt;
    if (pending.cancelled) pending.reject(new JobCancelledError());
    else if (msg.type === 'done') {
      for (const refused of msg.outcome.limitRefusals ?? [])
        this.opts.logger.warn(
          { worker: slot.index, hostPid: slot.host.pid, job: pending.job.command },
          `render stopped by a limit: ${refused}`,
        );
      pending.resolve(msg.stdoutBytes ? withStdoutBytes<CommandOutcome>(msg.outcome, msg.stdoutBytes) : msg.outcome);
    } else pending.reject(new Error(msg.message));
    this.pump(slot);
  }

  private onCrash(slot: Slot, err: Error & { code?: string }): void {
    if (slot.retired || this.closed) return;
    slot.retired = true;
    if (slot.killTimer) clearTimeout(slot.killTimer);
    const why =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? `the render ran out of memory (worker heap limit ${this.opts.memoryMb} MiB)`
        : err.code === 'ERR_RENDER_RSS_LIMIT'
          ? `the render ran out of memory (worker limit ${this.opts.memoryMb} MiB heap, ${Math.round(rssCapBytes(this.opts.memoryMb) / 1048576)} MiB resident; ${err.message})`
          : `the render worker crashed: ${err.message}`;
    const pending = slot.current;
    this.opts.logger.error(
      { worker: slot.index, hostPid: slot.host.pid, code: err.code, job: pending?.job.command },
      `${why}; replacing the worker`,
    );
    slot.current = null;
    slot.host.kill('SIGKILL');
    const fresh = this.spawn(slot.index);
    fresh.queue = slot.queue;
    this.slots[this.slots.indexOf(slot)] = fresh;
    this.replaced++;
    if (pending) {
      if (pending.cancelled) pending.reject(new JobCancelledError());
      else pending.reject(new WorkerCrashedError(`${why}; the daemon replaced the worker and keeps serving`));
    }
    this.pump(fresh);
  }

  private send(slot: Slot, msg: ToHost): void {
    if (slot.host.connected) slot.host.send(msg);
  }

  private pump(slot: Slot): void {
    if (slot.current || slot.retired || !slot.ready) return;
    const next = slot.queue.shift();
    if (!next) return;
    slot.current = next;
    slot.sentAt = performance.now();
    this.send(slot, { type: 'run', job: next.job });
  }

  private choose(root: string): Slot {
    const want = parseInt(createHash('sha1').update(root).digest('hex').slice(0, 8), 16) % this.opts.size;
    const idle = (s: Slot): boolean => !s.current && s.queue.length === 0;
    const preferred = this.slots.find((s) => s.index === want);
    if (preferred && idle(preferred)) return preferred;
    const other = this.slots.find(idle);
    if (other) return other;
    if (this.slots.length < this.opts.size) {
      const index = preferred
        ? [...Array(this.opts.size).keys()].find((i) => !this.slots.some((s) => s.index === i))!
        : want;
      const started = this.spawn(index);
      this.slots.push(started);
      return started;
    }
    return preferred ?? this.slots[0]!;
  }

  /** Runs a command on a worker. Returns a promise and a cancel function. */
  run(
    command: CommandName,
    params: CommandParams,
    remote?: RemoteSnapshot,
  ): { outcome: Promise<CommandOutcome>; cancel: () => void } {
    if (this.closed) return { outcome: Promise.reject(new Error('the worker pool is closed')), cancel: () => {} };
    const job: RenderJob = { jobId: this.nextJobId++, command, params, ...(remote ? { remote } : {}) };
    let pending!: PendingJob;
    const outcome = new Promise<CommandOutcome>((resolve, reject) => {
      pending = { job, resolve, reject, cancelled: false };
    });
    const slot = this.choose(affinityRoot(params));
    slot.queue.push(pending);
    this.pump(slot);
    const cancel = (): void => this.cancel(pending);
    return { outcome, cancel };
  }

  private cancel(pending: PendingJob): void {
    if (pending.cancelled) return;
    pending.cancelled = true;
    for (const slot of this.slots) {
      const queued = slot.queue.indexOf(pending);
      if (queued >= 0) {
        slot.queue.splice(queued, 1);
        pending.reject(new JobCancelledError());
        return;
      }
      if (slot.current === pending) {
        this.send(slot, { type: 'cancel', jobId: pending.job.jobId });
        slot.killTimer = setTimeout(() => {
          if (slot.current === pending && !slot.retired) this.onCrash(slot, new Error('terminated after cancellation'));
        }, this.opts.cancelGraceMs ?? CANCEL_GRACE_MS);
        slot.killTimer.unref();
        return;
      }
    }
  }

  status(): WorkerStatus[] {
    const started = this.slots.map((s) => ({
      index: s.index,
      threadId: s.threadId,
      ...(s.host.pid !== undefined ? { pid: s.host.pid } : {}),
      busy: s.current !== null,
      queued: s.queue.length,
      rendersServed: s.served,
      ...(s.lastRenderMs !== undefined ? { lastRenderMs: Math.round(s.lastRenderMs) } : {}),
      heapLimitMb: Math.round(s.heapLimitBytes / 1048576),
      rssBytes: (s.host.pid !== undefined ? hostRssBytes(s.host.pid) : null) ?? 0,
      pssBytes: (s.host.pid !== undefined ? processPssBytes(s.host.pid) : null) ?? 0,
    }));
    // Hosts not started yet are listed too (no pid, nothing served): the pool's size is what was asked for.
    for (let index = 0; index < this.opts.size; index++)
      if (!this.slots.some((s) => s.index === index))
        started.push({
          index,
          threadId: 0,
          busy: false,
          queued: 0,
          rendersServed: 0,
          heapLimitMb: 0,
          rssBytes: 0,
          pssBytes: 0,
        });
    return started.sort((a, b) => a.index - b.index);
  }

  /** Each cache of the workers, summed over the live workers (for `daemon status`). */
  cacheTotals(): WorkerCacheReport[] {
    const totals = new Map<string, WorkerCacheReport>();
    for (const slot of this.slots) {
      if (slot.retired) continue;
      for (const c of slot.caches) {
        const t = totals.get(c.name);
        if (!t) totals.set(c.name, { ...c });
        else {
          t.entries += c.entries;
          t.bytes += c.bytes;
          t.hits += c.hits;
          t.misses += c.misses;
        }
      }
    }
    return [...totals.values()];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.slots) {
      s.retired = true;
      if (s.killTimer) clearTimeout(s.killTimer);
      for (const p of [...(s.current ? [s.current] : []), ...s.queue])
        p.reject(new Error('the daemon is shutting down'));
    }
    if (this.watchdogTimer) clearInterval(this.watchdogTimer);
    // The hosts are unref'd (an idle daemon may exit); while waiting for them, keep the loop alive
    // so the shutdown that awaits this close runs to its end (and logs "daemon stopped").
    const keepAlive = setInterval(() => {}, 1000);
    try {
      await this.waitForHosts();
    } finally {
      clearInterval(keepAlive);
    }
  }

  private async waitForHosts(): Promise<void> {
    await Promise.all(
      this.slots.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.host.exitCode !== null || s.host.signalCode !== null) return resolve();
            s.host.once('exit', () => resolve());
            s.host.kill('SIGKILL');
          }),
      ),
    );
  }
}
