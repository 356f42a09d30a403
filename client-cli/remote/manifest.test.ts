import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildManifest, gitTopLevel, resolveInRoot, sha256Digest } from './manifest.js';
import { remoteParams, RemoteSetupError } from './remote-render.js';

const base = mkdtempSync(join(tmpdir(), 'kcfg-manifest-'));
after(() => rmSync(base, { recursive: true, force: true }));

function repo(name: string): string {
  const root = join(base, name);
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'f'), 'F');
  writeFileSync(join(root, 'sub', 'f'), 'SUBF');
  writeFileSync(join(base, 'outside'), 'CANARY');
  return root;
}

test('symlinks: every step must stay inside the root (hazard 1)', () => {
  const root = repo('links');
  const name = 'links';
  const links: [string, string, 'file' | 'refused'][] = [
    ['bad1', '../../x', 'refused'],
    ['bad2', '..///../bad//../link/', 'refused'],
    ['bad3', `../${name}/f`, 'refused'],
    ['bad4', '/etc/passwd', 'refused'],
    ['bad5', '../outside', 'refused'],
    ['good1', './f', 'file'],
    ['good2', 'sub/f', 'file'],
    ['sub/good3', '../sub/f', 'file'],
    ['good4', 'sub/../f', 'file'],
  ];
  for (const [link, target] of links) symlinkSync(target, join(root, link));
  for (const [link, , want] of links) assert.equal(resolveInRoot(root, link).kind, want, link);
  const m = buildManifest(root, false);
  for (const [link, , want] of links) assert.equal(link in m.files, want === 'file', link);
  assert.equal(m.files['good2'], sha256Digest(Buffer.from('SUBF')));
  const warned = m.warnings.join('\n');
  for (const bad of ['bad1', 'bad2', 'bad3', 'bad4', 'bad5']) assert.match(warned, new RegExp(`"${bad}"`));
  assert.doesNotMatch(warned, new RegExp(base), 'warnings name only root-relative paths');
});

test('link chains: more than 10 hops and cycles are errors (hazard 2)', () => {
  const root = repo('chains');
  symlinkSync('b', join(root, 'a'));
  symlinkSync('c', join(root, 'b'));
  symlinkSync('a', join(root, 'c'));
  for (let i = 0; i < 12; i++) symlinkSync(i === 11 ? 'f' : `l${i + 1}`, join(root, `l${i}`));
  assert.match(String((resolveInRoot(root, 'a') as { why?: string }).why), /more than 10 symlink hops/);
  assert.match(String((resolveInRoot(root, 'l0') as { why?: string }).why), /more than 10 symlink hops/);
  assert.equal(resolveInRoot(root, 'l5').kind, 'file');
});

test('user paths outside the root are refused by the client before anything is sent (hazard 2)', () => {
  const root = repo('paths');
  const params = (args: string[], flags: Record<string, string[]> = {}) => ({
    requestId: 'r',
    args,
    flags,
    cwd: join(root, 'sub'),
    env: { KUBECFG_REMOTE_TOKEN: 'secret' },
    tty: {
      stdoutIsTTY: false,
      stderrIsTTY: false,
      columns: null,
      color: 'never' as const,
      noColor: true,
      forceColor: null,
    },
  });
  const ok = remoteParams(
    root,
    params([join(root, 'f'), 'f'], { jpath: [root], 'ext-str-file': [`x=${join(root, 'f')}`] }),
  );
  assert.deepEqual(ok.args, ['../f', 'f']);
  assert.equal(ok.cwd, 'sub');
  assert.deepEqual(ok.flags.jpath, ['..']);
  assert.deepEqual(ok.flags['ext-str-file'], ['x=../f']);
  assert.deepEqual(ok.env, {}, 'the environment never travels');
  for (const [args, flags] of [
    [['../../secret.yaml'], {}],
    [['/etc/passwd'], {}],
    [[`${root}2/f`], {}],
    [['f'], { jpath: ['../../lib'] }],
  ] as [string[], Record<string, string[]>][])
    assert.throws(() => remoteParams(root, params(args, flags)), RemoteSetupError, JSON.stringify(args));
});

test('a git checkout takes clean tracked files from the index and hashes the rest', (t) => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
  } catch {
    t.skip('git is not installed');
    return;
  }
  const root = repo('git');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd: root,
      stdio: 'ignore',
    });
  git('init', '-q');
  writeFileSync(join(root, '.gitignore'), 'ignored.txt\n');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  writeFileSync(join(root, 'f'), 'CHANGED');
  writeFileSync(join(root, 'untracked.txt'), 'U');
  writeFileSync(join(root, 'ignored.txt'), 'I');
  assert.equal(gitTopLevel(join(root, 'sub')), root);
  const m = buildManifest(root, true);
  assert.match(m.files['sub/f']!, /^git-sha1:[0-9a-f]{40}$/);
  assert.equal(m.files['f'], sha256Digest(Buffer.from('CHANGED')));
  assert.equal(m.files['untracked.txt'], sha256Digest(Buffer.from('U')));
  assert.equal('ignored.txt' in m.files, false);
  assert.equal(m.fromIndex, 2); // .gitignore and sub/f
});
