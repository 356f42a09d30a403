/**
 * The memory limit a render runs under, for the Jsonnet builtins' up-front size checks
 * (RuntimeOptions.memoryLimit), named as the user configured it: a daemon worker's
 * `--worker-memory-mb` (its resourceLimits), the remote child's `--max-old-space-size`
 * (`--render-memory-mb`), else V8's own heap limit of this process (one-shot runs).
 */
import { getHeapStatistics } from 'node:v8';

const MiB = 1024 * 1024;

function fromExecArgv(execArgv: readonly string[]): number | undefined {
  for (const arg of execArgv) {
    const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(arg);
    if (m) return Number(m[1]);
  }
  return undefined;
}

/**
 * Set by a daemon worker thread's entry (worker-main.ts) from its resourceLimits. Reading
 * node:worker_threads here instead would load that module into every one-shot process.
 */
let inWorker = false;
let workerHeapLimitMb: number | undefined;
export function setWorkerHeapLimitMb(mb: number | undefined): void {
  inWorker = true;
  workerHeapLimitMb = mb;
  cached = undefined;
}

let cached: { bytes: number; name: string; onRefused: (message: string) => void } | undefined;
let refusals: string[] = [];

/** The refusals since the last call (the worker sends them with the outcome; the daemon logs them). */
export function takeLimitRefusals(): string[] {
  const taken = refusals;
  refusals = [];
  return taken;
}

const onRefused = (message: string): void => {
  if (refusals.length < 16) refusals.push(message);
};

export function renderMemoryLimit(): { bytes: number; name: string; onRefused: (message: string) => void } {
  if (cached) return cached;
  const workerMb = inWorker ? workerHeapLimitMb : undefined;
  const flagMb = inWorker ? undefined : fromExecArgv(process.execArgv);
  if (workerMb) cached = { bytes: workerMb * MiB, name: `the worker heap limit (${workerMb} MiB)`, onRefused };
  else if (flagMb) cached = { bytes: flagMb * MiB, name: `the render heap limit (${flagMb} MiB)`, onRefused };
  else {
    const bytes = getHeapStatistics().heap_size_limit;
    cached = { bytes, name: `the heap limit of this process (${Math.round(bytes / MiB)} MiB)`, onRefused };
  }
  return cached;
}
