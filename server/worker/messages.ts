/**
 * Messages between the daemon's main thread and its render workers. Every
 * field survives structured clone (FileDep carries bigint, which clones).
 */
import type { CommandParams, DaemonCommandName } from '../../protocol/index.js';
import type { RemoteSnapshot } from '../remote-inputs/remote-types.js';
import type { CommandOutcome } from '../commands/outcome.js';

export type { CommandOutcome };

/** Every command the daemon runs, by dashed path, as the protocol's catalog names them. */
export type CommandName = DaemonCommandName;
/** Commands that render in a worker, then talk to the cluster from the main thread (never cached). */
export type ClusterCommandName = 'diff' | 'update' | 'delete' | 'validate';

export interface RenderJob {
  /** > 0; also the value the cancel flag is set to when this job is cancelled. */
  jobId: number;
  command: CommandName;
  params: CommandParams;
  /** Remote inputs fetched so far for this request (server/remote-inputs/). */
  remote?: RemoteSnapshot;
}

export interface WorkerData {
  /** Int32Array over this buffer: [0] holds the jobId to cancel (0 = none). */
  cancelBuffer: SharedArrayBuffer;
  testHooks: boolean;
}

export type ToWorker = { type: 'run'; job: RenderJob };

/** Daemon → render host process (server/worker/render-host.ts). */
export type ToHost = ToWorker | { type: 'cancel'; jobId: number };

/** Render host → daemon: what its worker said, or why the worker ended. */
export type FromHost = FromWorker | { type: 'crashed'; code: string | null; message: string };

/** One worker's caches as `daemon status` shows them (server/worker/cache-report.ts). */
export interface WorkerCacheReport {
  name: string;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

export type FromWorker =
  | { type: 'ready'; heapLimitBytes: number; threadId: number }
  /** stdoutBytes: the outcome's stdout as UTF-8 (then `outcome.stdout` is empty; stdout-bytes.ts). */
  | { type: 'done'; jobId: number; outcome: CommandOutcome; stdoutBytes?: Uint8Array; caches: WorkerCacheReport[] }
  | { type: 'failed'; jobId: number; message: string; caches: WorkerCacheReport[] }
  /** Sent after the idle collection that follows a job: the retained sizes are known only then. */
  | { type: 'caches'; caches: WorkerCacheReport[] };
