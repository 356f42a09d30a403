import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { StatPoller } from './stat-poller.js';
import { DependencyRecorder } from './dependency-recorder.js';
import { tempDir } from '../test/support/temp-dir.js';

test('reports changes against seeded baselines, and against its own first poll otherwise', async (t) => {
  const dir = tempDir(t);
  const [seeded, unseeded, negative, untouched] = ['seeded', 'unseeded', 'negative', 'untouched'].map((n) =>
    join(dir, n),
  );
  fs.writeFileSync(seeded!, '1');
  fs.writeFileSync(unseeded!, '1');
  fs.writeFileSync(untouched!, '1');
  const recorder = new DependencyRecorder();
  recorder.readFile(seeded!);
  recorder.readFile(untouched!); // seeded and unchanged: must not be reported
  recorder.probe(negative!);
  const reports: string[][] = [];
  const tracked = new Set([seeded!, unseeded!, negative!, untouched!]);
  // A huge interval: rounds are driven by pollOnce() here, never by the timer.
  const poller = new StatPoller({ intervalMs: 3_600_000, paths: () => tracked, onChanged: (p) => reports.push(p) });
  t.after(() => poller.stop());
  for (const dep of recorder.deps()) poller.seed(dep);
  poller.start();

  fs.writeFileSync(seeded!, '22');
  fs.writeFileSync(negative!, 'appeared');
  fs.writeFileSync(unseeded!, '22'); // before its baseline exists: not reportable
  await poller.pollOnce();
  assert.deepEqual(reports, [[negative!, seeded!].sort()]);

  fs.writeFileSync(unseeded!, '333');
  fs.unlinkSync(seeded!);
  await poller.pollOnce();
  assert.deepEqual(reports.at(-1), [seeded!, unseeded!].sort());

  await poller.pollOnce();
  assert.equal(reports.length, 2);

  poller.stop();
  assert.equal(poller.running, false);
  fs.writeFileSync(untouched!, 'changed after stop');
  await poller.pollOnce();
  assert.equal(reports.length, 2);
});
