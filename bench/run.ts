/**
 * `npm run bench`: runs every benchmark of bench/ in turn, each printing our
 * figure next to its peer's from the same run. No timing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const suites = [
  'jsonnet/run',
  'startup/run',
  'yakl/run',
  'kcl/run',
  'daemon/run',
  'cleat/run',
  'helm/run',
  'kube/run',
  'fmt/run',
  'oci/run',
  'remote/run',
  'remote/fleet',
  'regex/run',
];
let failed = false;
for (const suite of suites) {
  const file = join(here, suite + ext);
  if (!existsSync(file)) continue;
  console.log(`\n== bench/${suite} ==`);
  const r = spawnSync(process.execPath, [...process.execArgv, file], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);
