/**
 * The worker's engine across requests: module values are reused (lang/jsonnet/module-cache.ts)
 * and file bytes are served from the content cache, yet every request's recorder still sees
 * the whole import closure, so the result cache's invalidation stays exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DependencyRecorder, depsStillValidSync } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { createEngine, moduleReuseStats } from './engine.js';
import { Flags } from './flags.js';

function params(cwd: string, flags: CommandParams['flags'] = {}): CommandParams {
  const tty = {
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: null,
    color: 'never',
    noColor: true,
    forceColor: null,
  } as const;
  return { requestId: 'r', args: [], flags, cwd, env: {}, tty };
}

test('a second request reuses modules and still records every file of the closure', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kcfg-engine-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): void => {
    writeFileSync(join(dir, name), text);
    // Settled files, as in a real repository (younger ones are re-read: the racy rule).
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, name), old, old);
  };
  write('main.jsonnet', "local a = import 'lib/a.libsonnet'; { a: a.v, env: std.extVar('env') }");
  mkdirSync(join(dir, 'lib'));
  write('lib/a.libsonnet', "{ v: (import 'b.libsonnet').v + 1 }");
  write('lib/b.libsonnet', '{ v: 1 }');
  const render = (env: string): { value: unknown; recorder: DependencyRecorder } => {
    const recorder = new DependencyRecorder();
    const engine = createEngine(
      new Flags('show', params(dir, { 'ext-str': [`env=${env}`] })),
      recorder,
      dir,
      () => false,
    );
    return { value: engine.evaluateFile('main.jsonnet'), recorder };
  };
  const first = render('dev');
  assert.deepEqual(first.value, { a: 2, env: 'dev' });
  const before = moduleReuseStats();
  const second = render('prod');
  assert.deepEqual(second.value, { a: 2, env: 'prod' });
  assert.ok(moduleReuseStats().hits > before.hits, 'lib/a.libsonnet handed over');
  const read = (r: DependencyRecorder): string[] =>
    r
      .deps()
      .filter((d) => d.digest !== undefined)
      .map((d) => d.path)
      .sort();
  assert.deepEqual(read(second.recorder), read(first.recorder));
  assert.equal(read(second.recorder).length, 3);
  // The deep file changes: the second request's deps see it, and the next render has the new value.
  write('lib/b.libsonnet', '{ v: 10 }');
  assert.equal(depsStillValidSync(second.recorder.deps()), false);
  assert.deepEqual(render('prod').value, { a: 11, env: 'prod' });
});
