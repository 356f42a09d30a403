import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRevision } from './git-revision.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'kubecfg-git-'));
  const files: Record<string, string> = {
    'loose/.git/HEAD': 'ref: refs/heads/main\n',
    'loose/.git/refs/heads/main': `${A}\n`,
    'loose/src/lib/x.libsonnet': '{}',
    'packed/.git/HEAD': 'ref: refs/heads/release\n',
    'packed/.git/packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${C} refs/heads/other\n${B} refs/heads/release\n`,
    'detached/.git/HEAD': `${C}\n`,
    'empty/.git/HEAD': 'ref: refs/heads/main\n',
    'worktree/.git': `gitdir: ${join(root, 'loose/.git/worktrees/wt')}\n`,
    'loose/.git/worktrees/wt/HEAD': 'ref: refs/heads/main\n',
    'loose/.git/worktrees/wt/commondir': '../..\n',
    'plain/app.jsonnet': '{}',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});
after(() => rmSync(root, { recursive: true, force: true }));

test('gitRevision reads HEAD from loose refs, packed-refs, detached HEAD and worktrees', async () => {
  const table: [string, string][] = [
    ['loose/src/lib/x.libsonnet', A],
    ['loose/src', A],
    ['packed', B],
    ['detached', C],
    ['worktree', A],
    ['empty', 'unknown'],
  ];
  for (const [path, want] of table) assert.equal(await gitRevision(join(root, path)), want, path);
});

test('outside a repository the revision is "unknown"', async (t) => {
  const outside = await gitRevision(join(root, 'plain/app.jsonnet'));
  // The temp dir itself might live inside some git checkout on a developer machine.
  if (outside !== 'unknown') t.skip('the temp dir is inside a git repository');
  else assert.equal(outside, 'unknown');
});
