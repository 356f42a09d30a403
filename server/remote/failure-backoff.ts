/**
 * Poison inputs (hazard 20): a render that was killed (timeout, CPU, memory,
 * output, crash) is counted by the digest of its whole input (tenant, request
 * key, manifest digest). After `threshold` kills the same input is refused for
 * `coolDownMs` without starting a child. Any change to the input is another
 * digest and renders at once. Ordinary render errors are not counted here:
 * they are deterministic results and the result cache serves them.
 */
import { LRUCache } from 'lru-cache';

export interface BackoffState {
  failures: number;
  lastReason: string;
  /** ms since epoch (the injected clock) until which the input is refused; 0 = not refused. */
  until: number;
}

export class FailureBackoff {
  private readonly entries = new LRUCache<string, BackoffState>({ max: 10_000 });

  constructor(
    private readonly threshold: number,
    private readonly coolDownMs: number,
    private readonly now: () => number,
  ) {}

  /** The refusal in force for this input, if any. */
  refused(key: string): BackoffState | undefined {
    const state = this.entries.get(key);
    if (!state || state.until === 0) return undefined;
    if (state.until <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return state;
  }

  recordFailure(key: string, reason: string): BackoffState {
    const prev = this.entries.get(key);
    const failures = (prev?.failures ?? 0) + 1;
    const state: BackoffState = {
      failures,
      lastReason: reason,
      until: failures >= this.threshold ? this.now() + this.coolDownMs : 0,
    };
    this.entries.set(key, state);
    return state;
  }

  recordSuccess(key: string): void {
    this.entries.delete(key);
  }
}
