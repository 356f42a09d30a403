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
 * - Crash or out-of-memory: the job fails with WorkerCrashedError, the worker
 *   is replaced, its queued jobs move to the replacement, the daemon serves on.
 * - Cancel: the shared flag is set to the job id (the evaluator stops at its
 *   next poll); if the job has not finished after the grace period the worker
 *   is terminated and replaced.
 */
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import { heapLimitOverridden, heapOverrides, workerExecArgv } from './heap-limits.js';
import type { CommandName, CommandOutcome, FromWorker, RenderJob, WorkerData } from './messages.js';
import type { CommandParams, WorkerStatus } from '../../protocol/index.js';
import type { RemoteSnapshot } from '../remote-inputs/remote-types.js';

/**
 * How long a cancelled render may take to notice the flag before its worker is terminated. A render
 * polls the flag within milliseconds, but on a loaded machine the worker thread may not be scheduled
 * for a while: terminating too early throws away a worker (and its warm caches) for nothing.
 */
const CANCEL_GRACE_MS = 500;

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
  worker: Worker;
  cancelFlag: Int32Array;
  current: PendingJob | null;
  queue: PendingJob[];
  served: number;
  heapLimitBytes: number;
  /** Set once we decided to end this worker (terminate or crash): ignore its late messages. */
  retired: boolean;
  killTimer: NodeJS.Timeout | null;
}

const WORKER_URL = new URL('./worker-main.js', import.meta.url);

export function affinityRoot(params: CommandParams): string {
  const first = params.args.find((a) => a !== '-');
  if (!first) return params.cwd;
  const abs = first.startsWith('/') ? first : `${params.cwd}/${first}`;
  return abs.slice(0, abs.lastIndexOf('/')) || '/';
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private nextJobId = 1;
  private closed = false;
  replaced = 0;
  readonly heapWarnings: string[] = [];

  constructor(private readonly opts: PoolOptions) {
    const overrides = heapOverrides(process.execArgv, process.env.NODE_OPTIONS);
    if (overrides.length) {
      const msg = `heap size flags found (${overrides.join(', ')}); stripped from worker execArgv so resourceLimits apply`;
      this.heapWarnings.push(msg);
      opts.logger.warn(msg);
    }
    for (let i = 0; i < opts.size; i++) this.slots.push(this.spawn(i));
  }

  private spawn(index: number): Slot {
    const cancelBuffer = new SharedArrayBuffer(4);
    const data: WorkerData = { cancelBuffer, testHooks: this.opts.testHooks };
    const worker = new Worker(WORKER_URL, {
      workerData: data,
      execArgv: workerExecArgv(process.execArgv),
      resourceLimits: {
        maxOldGenerationSizeMb: this.opts.memoryMb,
        maxYoungGenerationSizeMb: Math.max(16, Math.min(64, this.opts.memoryMb / 4)),
        stackSizeMb: 8,
      },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = {
      index,
      worker,
      cancelFlag: new Int32Array(cancelBuffer),
      current: null,
      queue: [],
      served: 0,
      heapLimitBytes: 0,
      retired: false,
      killTimer: null,
    };
    worker.on('message', (msg: FromWorker) => this.onMessage(slot, msg));
    worker.on('error', (err: Error & { code?: string }) => this.onCrash(slot, err));
    worker.on('exit', (code) => this.onCrash(slot, new Error(`the render worker exited with code ${code}`)));
    // A worker blocked in a long render must not keep a shutting-down daemon alive.
    worker.unref();
    return slot;
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (slot.retired) return;
    if (msg.type === 'ready') {
      slot.heapLimitBytes = msg.heapLimitBytes;
      if (heapLimitOverridden(msg.heapLimitBytes, this.opts.memoryMb)) {
        const warning = `worker ${slot.index} heap limit is ${Math.round(msg.heapLimitBytes / 1048576)} MiB, above the requested ${this.opts.memoryMb} MiB`;
        this.heapWarnings.push(warning);
        this.opts.logger.warn(warning);
      }
      return;
    }
    const pending = slot.current;
    if (!pending || pending.job.jobId !== msg.jobId) return;
    slot.current = null;
    slot.served++;
    if (pending.cancelled) pending.reject(new JobCancelledError());
    else if (msg.type === 'done') pending.resolve(msg.outcome);
    else pending.reject(new Error(msg.message));
    this.pump(slot);
  }

  private onCrash(slot: Slot, err: Error & { code?: string }): void {
    if (slot.retired || this.closed) return;
    slot.retired = true;
    if (slot.killTimer) clearTimeout(slot.killTimer);
    const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const why = oom
      ? `the render ran out of memory (worker heap limit ${this.opts.memoryMb} MiB)`
      : `the render worker crashed: ${err.message}`;
    this.opts.logger.error({ worker: slot.index, code: err.code }, why);
    const pending = slot.current;
    slot.current = null;
    void slot.worker.terminate();
    const fresh = this.spawn(slot.index);
    fresh.queue = slot.queue;
    this.slots[slot.index] = fresh;
    this.replaced++;
    if (pending) {
      if (pending.cancelled) pending.reject(new JobCancelledError());
      else pending.reject(new WorkerCrashedError(`${why}; the daemon replaced the worker and keeps serving`));
    }
    this.pump(fresh);
  }

  private pump(slot: Slot): void {
    if (slot.current || slot.retired) return;
    const next = slot.queue.shift();
    if (!next) return;
    slot.current = next;
    slot.worker.postMessage({ type: 'run', job: next.job });
  }

  private choose(root: string): Slot {
    const preferred =
      this.slots[parseInt(createHash('sha1').update(root).digest('hex').slice(0, 8), 16) % this.slots.length]!;
    if (!preferred.current && preferred.queue.length === 0) return preferred;
    return this.slots.find((s) => !s.current && s.queue.length === 0) ?? preferred;
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
        Atomics.store(slot.cancelFlag, 0, pending.job.jobId);
        slot.killTimer = setTimeout(() => {
          if (slot.current === pending && !slot.retired) this.onCrash(slot, new Error('terminated after cancellation'));
        }, this.opts.cancelGraceMs ?? CANCEL_GRACE_MS);
        slot.killTimer.unref();
        return;
      }
    }
  }

  status(): WorkerStatus[] {
    return this.slots.map((s) => ({
      index: s.index,
      threadId: s.worker.threadId,
      busy: s.current !== null,
      queued: s.queue.length,
      rendersServed: s.served,
      heapLimitMb: Math.round(s.heapLimitBytes / 1048576),
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.slots) {
      s.retired = true;
      if (s.killTimer) clearTimeout(s.killTimer);
      for (const p of [...(s.current ? [s.current] : []), ...s.queue])
        p.reject(new Error('the daemon is shutting down'));
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
