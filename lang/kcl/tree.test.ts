/**
 * A converted tree as the spec lays it out (kcl.mod, main.k, prototypes/<name>/proto.k,
 * envs/**\/{env,apps,app-<name>,patch}.k, a library lambda package), read from
 * testdata/spec-tree through a host over the real files and compared with its golden
 * output (`UPDATE_GOLDEN=1` rewrites it). The tree is run as a directory and as main.k.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../../test/support/repo-root.js';
import { runKcl, type KclHost } from './index.js';

const here = join(repoRoot(import.meta.url), 'lang', 'kcl');
const tree = join(here, 'testdata', 'spec-tree');
const golden = join(here, 'testdata', 'spec-tree.golden.yaml');

const diskHost: KclHost = {
  readFile: (p) => {
    try {
      return statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
  listDir: (p) => {
    try {
      return readdirSync(p).map((name) => ({ name, dir: statSync(join(p, name)).isDirectory() }));
    } catch {
      return undefined;
    }
  },
};

test('the spec tree evaluates to its golden output', () => {
  const out = runKcl(diskHost, { paths: [join(tree, 'main.k')] });
  if (process.env['UPDATE_GOLDEN']) writeFileSync(golden, out);
  assert.equal(out, readFileSync(golden, 'utf8'));
  assert.equal(runKcl(diskHost, { paths: [tree] }), out);
});

test('the leaf package alone prints its env', () => {
  const out = runKcl(diskHost, { paths: [join(tree, 'envs', 'prod')], sortKeys: true });
  assert.match(out, /^env:\n {2}applications:\n {4}forwarder:\n/);
});
