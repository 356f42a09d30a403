// Runs the compiled `*.test.js` files under dist/ with node's test runner. Node 20
// treats every .js file inside a folder named `test` as a test file when given a
// directory, which would run harnesses and servers; so we list the files ourselves.
//
//   node scripts/run-tests.mjs [--unit | --e2e] [FILTER...]
// --unit: the tests beside the code (pure and in-process, no daemon or peers);
// --e2e: the cross-folder suites in test/ (real daemons, servers, registries,
// child processes). Neither: all of them. A FILTER keeps the files whose path
// contains it. KUBECFG_TEST_CONCURRENCY sets how many files run at once.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir, out) {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, ent.name);
    if (ent.isDirectory()) find(p, out);
    else if (ent.name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const e2e = args.includes('--e2e');
const filter = args.filter((a) => !a.startsWith('--'));
const isE2e = (f) => f.startsWith(join('dist', 'test') + '/');
const files = find('dist', [])
  .filter((f) => (unit ? !isE2e(f) : e2e ? isE2e(f) : true))
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();
// Node 20 runs cores-1 files at a time: one on a 2-core machine, which leaves a
// core idle while an e2e file waits on its child processes. One file per core
// keeps both busy; more made the e2e suites (whose own timeouts are 60-120 s)
// starve each other on a loaded machine (docs/testing.md).
const concurrency = Number(process.env.KUBECFG_TEST_CONCURRENCY) || Math.max(2, availableParallelism());
const r = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(r.status ?? 1);
