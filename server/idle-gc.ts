/**
 * A garbage collection once a process has been idle for a moment (the daemon's main thread after
 * serving a request, a render worker after a job). V8 collects when allocation asks for it, so an
 * idle daemon keeps the garbage of its last render resident: after kube-prometheus that was a few
 * hundred MiB across the main process and the render host. Running only after IDLE_COLLECT_MS
 * without work, it costs a burst of requests nothing.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's collector, exposed without a command-line flag (execArgv and NODE_OPTIONS stay as they are). */
function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

export const collectGarbage = exposeGc();

/** How long a process must have been idle before it collects. */
const IDLE_COLLECT_MS = 250;

/** Collects once nothing called `busy()` again for IDLE_COLLECT_MS after `idle()`; then `after` runs. */
export class IdleCollector {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly after?: () => void) {}

  busy(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  idle(): void {
    if (!collectGarbage) return;
    this.busy();
    this.timer = setTimeout(() => {
      this.timer = null;
      collectGarbage();
      this.after?.();
    }, IDLE_COLLECT_MS);
    this.timer.unref();
  }
}
