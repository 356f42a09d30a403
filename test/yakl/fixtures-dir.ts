/**
 * Where the YAKL fixtures live: test/yakl/fixtures of the repository, found
 * from this file whether the tests run from the sources (tsx) or from dist/.
 */
import { join } from 'node:path';
import { repoRoot } from '../support/repo-root.js';

export const fixturesDir = join(repoRoot(import.meta.url), 'test', 'yakl', 'fixtures');
