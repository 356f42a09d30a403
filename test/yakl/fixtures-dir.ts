/**
 * Where the YAKL fixtures live: test/yakl/fixtures of the repository, found
 * from this file whether the tests run from the sources (tsx) or from dist/.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error('repository root not found');
    dir = dirname(dir);
  }
  return dir;
}

export const fixturesDir = join(repoRoot(), 'test', 'yakl', 'fixtures');
