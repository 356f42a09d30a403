/**
 * The confined loader of the Cleat commands against real files and links
 * (hazards 1, 2, 10): links that stay inside read, links that leave (even for
 * one step) are refused, cycles and long chains stop, irregular files are not
 * opened, and no message carries an absolute path.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DependencyRecorder } from '../../cache/index.js';
import { confinedLoader, findProjectRoot } from './cleat-loader.js';

describe('cleat confined loader', () => {
  let outer: string;
  let root: string;
  before(() => {
    outer = realpathSync(mkdtempSync(join(tmpdir(), 'cleat-loader-')));
    root = join(outer, 'repo');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(outer, 'secret'), 'secret');
    writeFileSync(join(root, 'f'), 'F');
    writeFileSync(join(root, 'sub', 'f'), 'SUBF');
    writeFileSync(join(root, 'sub', '..f'), 'DOTDOTF');
    const links: Array<[string, string]> = [
      ['good-dot', './f'],
      ['good-sub', 'sub/f'],
      ['good-dotdot-name', 'sub/..f'],
      ['sub/good-up', '../sub/f'],
      ['good-abs-inside', join(root, 'f')],
      ['bad-up', '../secret'],
      ['bad-messy', '..///../bad//../link/'],
      ['bad-out-and-back', `../${basename(root)}/f`],
      ['bad-abs', '/etc/hostname'],
      ['cycle-a', 'cycle-b'],
      ['cycle-b', 'cycle-a'],
    ];
    for (let i = 0; i < 11; i++) links.push([`chain${i}`, i === 10 ? 'f' : `chain${i + 1}`]);
    for (const [name, target] of links) symlinkSync(target, join(root, name));
    execFileSync('mkfifo', [join(root, 'fifo')]);
  });
  after(() => rmSync(outer, { recursive: true, force: true }));

  const cases: Array<[string, string | RegExp]> = [
    ['f', 'F'],
    ['good-dot', 'F'],
    ['good-sub', 'SUBF'],
    ['good-dotdot-name', 'DOTDOTF'],
    ['sub/good-up', 'SUBF'],
    ['good-abs-inside', 'F'],
    ['chain1', 'F'],
    ['bad-up', /outside the project root/],
    ['bad-messy', /outside the project root/],
    ['bad-out-and-back', /outside the project root/],
    ['bad-abs', /outside the project root/],
    ['cycle-a', /more than 10 symbolic links/],
    ['chain0', /more than 10 symbolic links/],
    ['fifo', /not a regular file/],
    ['sub', /not a regular file/],
    ['missing', /file not found/],
    ['f/x', /not a directory/],
  ];
  for (const [name, want] of cases) {
    it(`${name} → ${String(want)}`, () => {
      const loader = confinedLoader(root, new DependencyRecorder());
      const got = loader.read(join(root, name));
      if (typeof want === 'string') assert.equal(got, want);
      else {
        assert.ok(typeof got !== 'string', `read ${name}`);
        assert.match(got.error, want);
        assert.ok(!got.error.includes('/'), 'no path in the message');
      }
    });
  }

  it('a path lexically outside the root is refused before any file is touched', () => {
    const got = confinedLoader(root, new DependencyRecorder()).read(join(outer, 'secret'));
    assert.deepEqual(got, { error: 'leaves the project root' });
  });

  it('the root is --root, else the nearest .git above the entry, else its directory', () => {
    const rec = new DependencyRecorder();
    const entry = join(root, 'sub', 'main.cleat');
    assert.equal(findProjectRoot(entry, undefined, '/', rec), join(root, 'sub'));
    mkdirSync(join(root, '.git'));
    try {
      assert.equal(findProjectRoot(entry, undefined, '/', new DependencyRecorder()), root);
      assert.equal(findProjectRoot(entry, 'sub', root, new DependencyRecorder()), join(root, 'sub'));
    } finally {
      rmSync(join(root, '.git'), { recursive: true });
    }
  });
});
