import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { featuresDoc } from './doc.js';
import { FEATURES } from './registry.js';
import { repoRoot } from '../../test/support/repo-root.js';

test('docs/features.md is generated from the registry and up to date', () => {
  const page = readFileSync(join(repoRoot(import.meta.url), 'docs/features.md'), 'utf8');
  assert.equal(page, featuresDoc(), 'run `npm run gen:features-doc`');
  for (const f of FEATURES) assert.ok(page.includes(`\`${f.name}\``), f.name);
});

test('no GA feature has an enabled-check left in the source', () => {
  const ga = FEATURES.filter((f) => f.stage === 'GA').map((f) => f.name);
  if (ga.length === 0) return;
  const root = repoRoot(import.meta.url);
  const offenders: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) {
        const text = readFileSync(p, 'utf8');
        for (const n of ga)
          if (text.includes(`enabled('${n}')`) || text.includes(`require('${n}'`)) offenders.push(`${p}: ${n}`);
      }
    }
  };
  walk(root);
  assert.deepEqual(offenders, []);
});
