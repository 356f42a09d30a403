/**
 * Admission of remote renders (hazard 19): at most `maxConcurrent` renders
 * per tenant and `globalMax` in all run at once; up to `maxQueued` more per
 * tenant wait (first come, first served) for at most `queueWaitMs`. A request
 * beyond the queue, or one whose wait runs out, is refused as busy. The wait
 * is reported so it can be exported as a metric. A waiter whose client is
 * gone (its signal aborts) leaves the queue at once with CancelledError.
 */
import type { TenantConfig } from './tenants.js';

export class BusyError extends Error {}
export class CancelledError extends Error {}

interface Waiter {
  tenant: TenantConfig;
  grant: () => void;
}

export interface Slot {
  waitedMs: number;
  release(): void;
}

export class Admission {
  private running = 0;
  private readonly perTenant = new Map<string, number>();
  private readonly queued = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly globalMax: number,
    private readonly queueWaitMs: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  private canRun(tenant: TenantConfig): boolean {
    return this.running < this.globalMax && (this.perTenant.get(tenant.name) ?? 0) < tenant.maxConcurrent;
  }

  private take(tenant: TenantConfig): void {
    this.running++;
    this.perTenant.set(tenant.name, (this.perTenant.get(tenant.name) ?? 0) + 1);
  }

  private give(tenant: TenantConfig): void {
    this.running--;
    this.perTenant.set(tenant.name, (this.perTenant.get(tenant.name) ?? 1) - 1);
    // Wake the first waiter that may run now (another tenant's waiter may be first in line).
    for (let i = 0; i < this.queue.length; i++) {
      const w = this.queue[i]!;
      if (this.canRun(w.tenant)) {
        this.queue.splice(i, 1);
        this.take(w.tenant);
        w.grant();
        i--;
      }
    }
  }

  acquire(tenant: TenantConfig, signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(new CancelledError('the client went away before the render started'));
    const started = performance.now();
    const slot = (): Slot => {
      let released = false;
      return {
        waitedMs: performance.now() - started,
        release: () => {
          if (released) return;
          released = true;
          this.give(tenant);
        },
      };
    };
    if (this.canRun(tenant) && !this.queue.some((w) => w.tenant.name === tenant.name)) {
      this.take(tenant);
      return Promise.resolve(slot());
    }
    const waiting = this.queued.get(tenant.name) ?? 0;
    if (waiting >= tenant.maxQueued)
      return Promise.reject(
        new BusyError(
          `the render service is busy: ${tenant.maxConcurrent} renders running and ${waiting} queued for this tenant`,
        ),
      );
    this.queued.set(tenant.name, waiting + 1);
    return new Promise<Slot>((resolve, reject) => {
      const leave = (err: Error): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        this.queued.set(tenant.name, (this.queued.get(tenant.name) ?? 1) - 1);
        reject(err);
      };
      const onAbort = (): void => leave(new CancelledError('the client went away while the render was queued'));
      const waiter: Waiter = {
        tenant,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.queued.set(tenant.name, (this.queued.get(tenant.name) ?? 1) - 1);
          resolve(slot());
        },
      };
      const timer = setTimeout(
        () =>
          leave(
            new BusyError(`the render service is busy: no render slot within ${Math.round(this.queueWaitMs / 1000)}s`),
          ),
        this.queueWaitMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
    });
  }
}
