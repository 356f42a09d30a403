/**
 * Retry-on-conflict with client-go's default backoff (4 attempts: 10 ms,
 * then ×5), for read-modify-write cycles that lose a race on
 * resourceVersion. Invariants: only 409 Conflict is retried; the sleep is
 * injectable so tests never wait on the clock.
 */
import { isConflict } from './errors.js';

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function retryOnConflict<T>(attempt: () => Promise<T>, sleep: Sleep = realSleep, steps = 4): Promise<T> {
  let delay = 10;
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isConflict(err) || i >= steps) throw err;
      await sleep(delay);
      delay *= 5;
    }
  }
}
