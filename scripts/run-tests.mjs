// Runs every compiled `*.test.js` under dist/ with node's test runner. Node 20
// treats every .js file inside a folder named `test` as a test file when given a
// directory, which would run harnesses and servers; so we list the files ourselves.
import { spawnSync } from 'node:child_process';
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

const filter = process.argv.slice(2);
const files = find('dist', [])
  .filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)))
  .sort();
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
