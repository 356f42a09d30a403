import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

test('docs/errors.md lists every error code used in the source', async () => {
  const root = repoRoot();
  const { codesInSource } = (await import(join(root, 'scripts/gen-errors-doc.mjs'))) as {
    codesInSource(root: string): string[];
  };
  const page = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const missing = codesInSource(root).filter((c) => !page.includes(`\`${c}\``));
  assert.deepEqual(missing, [], 'run `node scripts/gen-errors-doc.mjs`');
});
