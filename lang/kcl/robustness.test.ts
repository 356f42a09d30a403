/**
 * Bad input never escapes as anything but a KclError: every prefix of the spec tree's
 * files (cut every few characters), nesting deeper than the parser allows, recursion
 * deeper than the evaluator allows.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../test/support/repo-root.js';
import { KclError, runKcl } from './index.js';
import { memoryHost } from './memory-host.js';

const tree = join(repoRoot(import.meta.url), 'lang/kcl/testdata/spec-tree');

function readTree(dir: string, out: Record<string, string> = {}): Record<string, string> {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) readTree(p, out);
    else out['/t/' + relative(tree, p)] = readFileSync(p, 'utf8');
  }
  return out;
}

function outcome(files: Record<string, string>): 'ok' | 'error' {
  try {
    runKcl(memoryHost(files), { paths: ['/t/main.k'] });
    return 'ok';
  } catch (err) {
    if (err instanceof KclError) return 'error';
    throw err;
  }
}

test('every cut of every file of the tree is a result or a KclError', () => {
  const files = readTree(tree);
  let errors = 0;
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.k')) continue;
    for (let cut = 0; cut < text.length; cut += 11)
      if (outcome({ ...files, [path]: text.slice(0, cut) }) === 'error') errors++;
  }
  assert.ok(errors > 0);
});

test('deep nesting and deep recursion are KclErrors', () => {
  const nested = outcome({ '/t/main.k': `a = ${'['.repeat(5000)}${']'.repeat(5000)}\n` });
  assert.equal(nested, 'error');
  const unary = outcome({ '/t/main.k': `a = ${'-'.repeat(50000)}1\n` });
  assert.equal(unary, 'error');
  const recursion = outcome({ '/t/main.k': 'f = lambda n { 0 if n == 0 else 1 + f(n - 1) }\na = f(100000)\n' });
  assert.equal(recursion, 'error');
  assert.equal(outcome({ '/t/main.k': 'f = lambda n { 0 if n == 0 else 1 + f(n - 1) }\na = f(100)\n' }), 'ok');
});
