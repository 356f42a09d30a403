/**
 * --parallelism: mapInOrder keeps results and progress lines in input order
 * whatever order tasks finish in, never exceeds its limit, and reports the
 * earliest failure after every started task ends. Against the test API
 * server: update with parallelism 8 logs exactly what a sequential run logs
 * and leaves the same objects; diff of many objects of one kind in one
 * namespace reads them with one LIST, and falls back to GETs when the LIST
 * is refused, with the same output.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../lang/common/json.js';
import { ApiStatusError } from '../test/apiserver/status.js';
import { configMap, deployment, startHarness } from '../test/kube/harness.js';
import { diffObjects } from './diff.js';
import { mapInOrder } from './parallel.js';
import { updateObjects } from './update.js';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

test('mapInOrder: results and lines in input order, at most `limit` in flight', async () => {
  let inFlight = 0;
  let peak = 0;
  const lines: string[] = [];
  const delays = [5, 1, 4, 0, 3, 2, 0, 1];
  const out = await mapInOrder(
    delays,
    3,
    (l) => lines.push(l),
    async (d, i, log) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      log(`start ${i}`);
      await tick(d);
      log(`end ${i}`);
      inFlight--;
      return i * 10;
    },
  );
  assert.deepEqual(out, [0, 10, 20, 30, 40, 50, 60, 70]);
  assert.deepEqual(
    lines,
    delays.flatMap((_, i) => [`start ${i}`, `end ${i}`]),
  );
  assert.ok(peak <= 3 && peak >= 2);
});

test('mapInOrder: the earliest failure is thrown after the lines of every task that ran', async () => {
  const lines: string[] = [];
  const started: number[] = [];
  await assert.rejects(
    mapInOrder(
      [0, 1, 2, 3, 4, 5],
      2,
      (l) => lines.push(l),
      async (i, _idx, log) => {
        started.push(i);
        log(`ran ${i}`);
        await tick(i === 1 ? 1 : 3);
        if (i === 1 || i === 2) throw new Error(`boom ${i}`);
      },
    ),
    /boom 1/,
  );
  assert.ok(!started.includes(5), 'no task starts after a failure');
  assert.deepEqual(
    lines,
    started.sort().map((i) => `ran ${i}`),
  );
});

function workload(n: number): JsonObject[] {
  const objects: JsonObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps' } }];
  for (let i = 0; i < n; i++) {
    objects.push(configMap(`cm-${i}`, { i: String(i) }, 'apps'));
    if (i % 4 === 0)
      objects.push({ ...deployment(`web-${i}`, 'nginx:1'), metadata: { name: `web-${i}`, namespace: 'apps' } });
  }
  return objects;
}

test('update with parallelism 8 logs and applies exactly what a sequential update does', async () => {
  const runs: Array<{ lines: string[]; names: string[] }> = [];
  for (const parallelism of [1, 8]) {
    const h = await startHarness();
    try {
      const lines: string[] = [];
      const report = await updateObjects(h.session, workload(24), { parallelism, log: (l) => lines.push(l) });
      runs.push({ lines, names: report.applied.map((a) => `${a.desc} ${a.action}`) });
    } finally {
      await h.close();
    }
  }
  assert.deepEqual(runs[1], runs[0]);
  assert.equal(runs[0]!.lines.filter((l) => l.startsWith('Creating ')).length, 1 + 24 + 6);
});

test('diff reads many objects of one kind with one LIST, or GETs when the LIST is refused', async () => {
  const refuseLists = { on: false };
  const h = await startHarness({
    intercept: (req) =>
      refuseLists.on && req.verb === 'list' ? new ApiStatusError(403, 'Forbidden', 'lists are forbidden') : undefined,
  });
  try {
    const objects = workload(20);
    await updateObjects(h.session, objects, { parallelism: 8 });
    const outputs: string[] = [];
    for (const refuse of [false, true]) {
      refuseLists.on = refuse;
      const before = h.server.requests.length;
      const result = await diffObjects(h.session, objects, { strategy: 'subset', omitSecrets: false, parallelism: 4 });
      assert.equal(result.exitCode, 0, result.output);
      outputs.push(result.output);
      const reads = h.server.requests.slice(before).filter((r) => r.resource !== undefined);
      const configMapReads = reads.filter((r) => r.resource?.plural === 'configmaps');
      if (!refuse)
        assert.deepEqual(
          configMapReads.map((r) => r.verb),
          ['list'],
        );
      else assert.equal(configMapReads.filter((r) => r.verb === 'get').length, 20);
    }
    assert.equal(outputs[0], outputs[1]);
  } finally {
    await h.close();
  }
});
