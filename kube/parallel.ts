/**
 * Bounded parallelism for the cluster commands (`--parallelism`): run a task
 * per item with at most `limit` in flight, and hand results back in input
 * order. Progress lines a task logs are held back until every earlier item
 * has finished, so the output reads exactly as a sequential run's would.
 *
 * Invariants: with limit 1 this is the sequential loop; after the first
 * failure no new task starts, the tasks in flight finish, the lines of every
 * item that ran are flushed in input order, and the failure of the earliest
 * item (in input order) is the one thrown.
 */

export type OrderedLog = (line: string) => void;

export async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  log: OrderedLog,
  task: (item: T, index: number, log: OrderedLog) => Promise<R>,
): Promise<R[]> {
  const width = Math.max(1, Math.floor(limit));
  const results: R[] = new Array<R>(items.length);
  const held: string[][] = items.map(() => []);
  const done: boolean[] = items.map(() => false);
  const errors = new Map<number, unknown>();
  let flushed = 0;
  let next = 0;
  const flush = (): void => {
    while (flushed < items.length && done[flushed] === true && !errors.has(flushed)) {
      for (const line of held[flushed]!) log(line);
      held[flushed] = [];
      flushed++;
    }
  };
  const worker = async (): Promise<void> => {
    while (next < items.length && errors.size === 0) {
      const index = next++;
      const lines = held[index]!;
      try {
        results[index] = await task(items[index]!, index, (line) => lines.push(line));
      } catch (err) {
        errors.set(index, err);
      }
      done[index] = true;
      flush();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, () => worker()));
  if (errors.size > 0) {
    // Everything that ran, failed or not, is reported in input order before the error.
    for (let i = flushed; i < items.length; i++) if (done[i] === true) for (const line of held[i]!) log(line);
    throw errors.get(Math.min(...errors.keys()));
  }
  return results;
}
