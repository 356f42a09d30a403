/**
 * Entry of a render worker thread. Runs one job at a time, synchronously
 * (the Jsonnet evaluator is synchronous). Cancellation arrives through shared
 * memory, not messages, because the thread is busy while it renders: the
 * evaluator polls `shouldStop`, which reads the cancel flag.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { runCommand } from '../commands/run.js';
import type { FromWorker, ToWorker, WorkerData } from './messages.js';
import { takeLimitRefusals } from '../commands/memory-limit.js';

const data = workerData as WorkerData;
const cancelFlag = new Int32Array(data.cancelBuffer);
const port = parentPort!;

function send(msg: FromWorker): void {
  port.postMessage(msg);
}

port.on('message', (msg: ToWorker) => {
  if (msg.type !== 'run') return;
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
    send({
      type: 'done',
      jobId: job.jobId,
      outcome: refused.length ? { ...outcome, limitRefusals: refused } : outcome,
    });
  } catch (err) {
    send({ type: 'failed', jobId: job.jobId, message: err instanceof Error ? err.message : String(err) });
  }
});

send({ type: 'ready', heapLimitBytes: getHeapStatistics().heap_size_limit, threadId });
