/**
 * Entry of a render worker thread. Runs one job at a time, synchronously
 * (the Jsonnet evaluator is synchronous). Cancellation arrives through shared
 * memory, not messages, because the thread is busy while it renders: the
 * evaluator polls `shouldStop`, which reads the cancel flag.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, resourceLimits, threadId, workerData } from 'node:worker_threads';
import { runCommand } from '../commands/run.js';
import { installTestHook } from '../commands/test-hook.js';
import type { FromWorker, ToWorker, WorkerData } from './messages.js';
import { setWorkerHeapLimitMb, takeLimitRefusals } from '../commands/memory-limit.js';
import { cacheReport, noteRetainedHeap } from './cache-report.js';
import { IdleCollector } from '../idle-gc.js';
import { knownStdoutBytes, STDOUT_BYTES_MIN, withChanges } from './stdout-bytes.js';

const data = workerData as WorkerData;
const cancelFlag = new Int32Array(data.cancelBuffer);
const port = parentPort!;
const encoder = new TextEncoder();
// Before the first job: the port holds messages until a listener is attached.
await installTestHook(data.testHooks);

function send(msg: FromWorker): void {
  port.postMessage(msg);
}

// The young generation is given back only after a pause of a minute: the next render pays a full collection more.
const idle = new IdleCollector({
  after: () => {
    noteRetainedHeap();
    send({ type: 'caches', caches: cacheReport() });
  },
  shrinkAfterMs: 60_000,
});

setWorkerHeapLimitMb(resourceLimits.maxOldGenerationSizeMb);

port.on('message', (msg: ToWorker) => {
  if (msg.type !== 'run') return;
  idle.busy();
  const { job } = msg;
  const shouldStop = (): boolean => Atomics.load(cancelFlag, 0) === job.jobId;
  takeLimitRefusals();
  try {
    const outcome = runCommand(job.command, job.params, {
      shouldStop,
      testHooks: data.testHooks,
      ...(job.remote ? { remote: job.remote } : {}),
    });
    const refused = takeLimitRefusals();
    const done = refused.length ? withChanges(outcome, { limitRefusals: refused }) : outcome;
    // Bytes the command made itself (`jsonnet`'s JSON) are sent as they are, never decoded here.
    const known = knownStdoutBytes(done);
    if (known !== undefined || done.stdout.length >= STDOUT_BYTES_MIN) {
      // Encoded once here; the buffer moves to the host without a copy (stdout-bytes.ts).
      const stdoutBytes = known ?? encoder.encode(done.stdout);
      port.postMessage(
        {
          type: 'done',
          jobId: job.jobId,
          outcome: withChanges(done, { stdout: '' }),
          stdoutBytes,
          caches: cacheReport(),
        },
        [stdoutBytes.buffer as ArrayBuffer],
      );
    } else send({ type: 'done', jobId: job.jobId, outcome: done, caches: cacheReport() });
  } catch (err) {
    send({
      type: 'failed',
      jobId: job.jobId,
      message: err instanceof Error ? err.message : String(err),
      caches: cacheReport(),
    });
  }
  idle.idle();
});

send({ type: 'ready', heapLimitBytes: getHeapStatistics().heap_size_limit, threadId });
