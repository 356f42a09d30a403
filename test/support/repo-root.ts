/**
 * The repository root, found from the calling file's location, so tests read
 * their data files whether they run from the sources (tsx) or from dist/
 * (where data files are not copied).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `from` is the caller's `import.meta.url`. */
export function repoRoot(from: string): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, 'package.json'))) {
    if (dirname(dir) === dir) throw new Error('repository root not found');
    dir = dirname(dir);
  }
  return dir;
}
