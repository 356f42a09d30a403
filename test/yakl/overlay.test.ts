/**
 * The spec's worked example with its overlay: web.yakl + prod.yakl means the
 * spec's two Jsonnet objects added, and a file that extends web.yakl with a
 * first `<<+` document gives the same output as the overlay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './fixtures-dir.js';
import { evalJsonnet, evalYakl } from '../support/yakl-eval.js';

const dir = join(fixturesDir, 'worked-example');
const files: Record<string, string> = {};
for (const f of readdirSync(dir)) files[f] = readFileSync(join(dir, f), 'utf8');

test('web.yakl + prod.yakl equals the spec meaning', () => {
  const got = evalJsonnet(`(import 'yakl:web.yakl') + (import 'yakl:prod.yakl')`, files);
  const want = evalJsonnet(`(import 'web.expected.jsonnet') + (import 'prod.expected.jsonnet')`, files);
  assert.deepEqual(got, want);
  const dep = (
    got as { deployment: { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } } }
  ).deployment;
  assert.equal(dep.spec.replicas, 5);
  assert.equal(dep.spec.template.spec.containers[0]!.image, 'nginx:1.29');
});

test('a file extending web.yakl gives the same output as the overlay', () => {
  const extended = `<<+: \${import 'yakl:web.yakl'}\n---\n` + files['prod.yakl']!;
  const got = evalYakl(extended, files, 'prod2.yakl');
  const want = evalJsonnet(`(import 'yakl:web.yakl') + (import 'yakl:prod.yakl')`, files);
  assert.deepEqual(got, want);
});
