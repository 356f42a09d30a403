/**
 * A garbage collection once a process has been idle for a moment (the daemon's main thread after
 * serving a request, a render worker after a job). V8 collects when allocation asks for it, so an
 * idle daemon keeps the garbage of its last render resident: after kube-prometheus that was a few
 * hundred MiB across the main process and the render host. Running only after IDLE_COLLECT_MS
 * without work, it costs a burst of requests nothing.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type GcFunction = (options?: { type: 'major' | 'minor' }) => void;

/** V8's collector, exposed without a command-line flag (execArgv and NODE_OPTIONS stay as they are). */
function exposeGc(): GcFunction | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as GcFunction) : undefined;
  } catch {
    return undefined;
  }
}

const gc = exposeGc();

/** A full collection (also run once before a worker measures its baseline heap). */
export const collectGarbage = gc ? (): void => gc() : undefined;

/**
 * V8 grows the young generation up to its limit during a render (64 MiB in a render worker, 32 MiB
 * in the daemon's main thread) and keeps it committed and resident once empty: a full collection
 * does not give it back. It shrinks it only in a collection that finds a low allocation rate in
 * its record of recent collections. Young-generation collections of an emptied young generation
 * cost well under a millisecond each; sixteen of them, a moment after the full collection with
 * nothing allocated in between, make that record say "idle", and the young generation shrinks to
 * 1 MiB (measured: not with ten, nor right after the full collection). Whether the record says
 * idle depends on what the process did just before (the daemon's main thread after a cold render
 * still set up its file watches), so an attempt that left the young generation large is tried
 * again after twice the wait, a few times.
 */
const SHRINKING_SCAVENGES = 16;
const SHRINK_ATTEMPTS = 5;
/** A young generation at most this large is left as it is (V8 starts one at 1-2 MiB). */
const SMALL_YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** True when the young generation is small now (shrunk, or never grown). */
function shrinkYoungGeneration(): boolean {
  if (youngGenerationBytes() <= SMALL_YOUNG_GENERATION_BYTES) return true;
  for (let i = 0; i < SHRINKING_SCAVENGES; i++) gc!({ type: 'minor' });
  return youngGenerationBytes() <= SMALL_YOUNG_GENERATION_BYTES;
}

/** How long a process must have been idle before it collects. */
const IDLE_COLLECT_MS = 250;

export interface IdleCollectorOptions {
  /** Runs after the full collection. */
  after?: () => void;
  /**
   * How long after the full collection, still idle, the young generation is given back. Once V8
   * sees the idle allocation rate it also runs its memory reducer (a compacting collection or two,
   * ~8 s later) and lowers the old generation's limit, so the next render pays one more full
   * collection (~0.1 s of CPU on kube-prometheus; the first version shrank a render worker 0.5 s
   * after each job and an edit's CPU, daemon and render host, went from ~0.65 to ~0.8 s). A main
   * thread's young generation holds only a request's messages: it shrinks soon; a render worker
   * waits for a longer pause.
   */
  shrinkAfterMs: number;
}

/**
 * Collects once nothing called `busy()` again for IDLE_COLLECT_MS after `idle()`; `shrinkAfterMs`
 * later, still idle, gives the young generation back.
 */
export class IdleCollector {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: IdleCollectorOptions) {}

  busy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  idle(): void {
    if (!gc) return;
    this.busy();
    this.timer = setTimeout(() => {
      gc();
      this.options.after?.();
      this.shrinkLater(this.options.shrinkAfterMs, SHRINK_ATTEMPTS);
    }, IDLE_COLLECT_MS);
    this.timer.unref();
  }

  private shrinkLater(afterMs: number, attempts: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!shrinkYoungGeneration() && attempts > 1) this.shrinkLater(afterMs * 2, attempts - 1);
    }, afterMs);
    this.timer.unref();
  }
}
