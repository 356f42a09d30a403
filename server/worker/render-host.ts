/**
 * Entry of a render host process: one per pool slot, forked by the daemon
 * (server/worker/pool.ts). It runs a single render worker thread with V8
 * resourceLimits and relays messages between that thread and the daemon.
 *
 * Why a process around the thread: in Node 20 a worker whose heap overshoots
 * its limit in one step (a large array or string, or a GC that cannot make
 * room) does not get ERR_WORKER_OUT_OF_MEMORY; V8 calls its fatal OOM handler
 * and the whole process aborts. Measured: `std.range(0, 1e8)` with a 1024 MiB
 * worker limit killed the daemon with "Reached heap limit". Inside this host
 * such an abort ends only the host; the daemon sees the exit and the stderr
 * text, reports the limit and forks a new host. The thread is kept (rather
 * than rendering on the host's main thread) because cancellation goes through
 * a SharedArrayBuffer flag the evaluator polls while the thread is busy.
 */
import { Worker } from 'node:worker_threads';
import type { FromHost, ToHost, WorkerData } from './messages.js';
import { IdleCollector } from '../idle-gc.js';

const memoryMb = Number(process.env.KUBECFG_RENDER_HOST_MEMORY_MB);
const testHooks = process.env.KUBECFG_RENDER_HOST_TEST_HOOKS === '1';

function send(msg: FromHost): void {
  if (process.connected) process.send!(msg);
}

const cancelBuffer = new SharedArrayBuffer(4);
const cancelFlag = new Int32Array(cancelBuffer);
const data: WorkerData = { cancelBuffer, testHooks };
const worker = new Worker(new URL('./worker-main.js', import.meta.url), {
  workerData: data,
  resourceLimits: {
    maxOldGenerationSizeMb: memoryMb,
    maxYoungGenerationSizeMb: Math.max(16, Math.min(64, memoryMb / 4)),
    stackSizeMb: 8,
  },
  stdout: false,
  stderr: false,
});

// Relaying an outcome copies its output through this isolate too: collect that garbage once idle.
const idleGc = new IdleCollector({ shrinkAfterMs: 250 });
worker.on('message', (msg: FromHost) => {
  send(msg);
  if (msg.type === 'done' || msg.type === 'failed') idleGc.idle();
});
worker.on('error', (err: Error & { code?: string }) => {
  send({ type: 'crashed', code: err.code ?? null, message: err.message });
  process.exit(70);
});
worker.on('exit', (code) => {
  send({ type: 'crashed', code: null, message: `the render worker exited with code ${code}` });
  process.exit(70);
});

process.on('message', (msg: ToHost) => {
  if (msg.type === 'run') {
    idleGc.busy();
    worker.postMessage(msg);
  } else if (msg.type === 'cancel') Atomics.store(cancelFlag, 0, msg.jobId);
});
// The daemon went away (or closed us): nothing left to render for.
process.on('disconnect', () => process.exit(0));
// A safety net for when no 'disconnect' comes: full test runs left a host behind now and then,
// orphaned (re-parented) with its channel gone and its event loop idle. Checked once a second.
const daemonPid = process.ppid;
setInterval(() => {
  if (!process.connected || process.ppid !== daemonPid) process.exit(0);
}, 1000).unref();
