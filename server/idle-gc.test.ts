import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { IdleCollector } from './idle-gc.js';

const youngGeneration = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size;

/** Allocates like a render: many short-lived objects, some surviving a while (which grows the young generation). */
function churn(): number {
  let kept: { i: number; list: number[] }[] = [];
  let total = 0;
  for (let i = 0; i < 3_000_000; i++) {
    const o = { i, list: [i, i + 1] };
    if (i % 8 === 0) kept.push(o);
    if (kept.length > 50_000) {
      total += kept.length;
      kept = [];
    }
  }
  return total + kept.length;
}

test('an idle collection gives the grown young generation back, and runs `after` once', async () => {
  churn();
  assert.ok(youngGeneration() > 4 * 1024 * 1024, `the young generation grew (${youngGeneration()} bytes)`);
  let afterRuns = 0;
  const collector = new IdleCollector({ after: () => afterRuns++, shrinkAfterMs: 200 });
  collector.idle();
  // No timing is asserted: the attempts run 200 ms to 3 s after the collection; wait as long as it takes.
  for (let waited = 0; youngGeneration() > 4 * 1024 * 1024 && waited < 60_000; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
  assert.ok(youngGeneration() <= 4 * 1024 * 1024, `the young generation shrank (${youngGeneration()} bytes)`);
  assert.equal(afterRuns, 1);
});

test('busy() before the collection cancels it', async () => {
  let afterRuns = 0;
  const collector = new IdleCollector({ after: () => afterRuns++, shrinkAfterMs: 200 });
  collector.idle();
  collector.busy();
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(afterRuns, 0);
});
