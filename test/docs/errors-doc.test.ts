import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root.js';

test('docs/errors.md lists every error code used in the source', async () => {
  const root = repoRoot(import.meta.url);
  const { codesInSource } = (await import(join(root, 'scripts/gen-errors-doc.mjs'))) as {
    codesInSource(root: string): string[];
  };
  const page = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const missing = codesInSource(root).filter((c) => !page.includes(`\`${c}\``));
  assert.deepEqual(missing, [], 'run `node scripts/gen-errors-doc.mjs`');
});
