import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailureBackoff } from './failure-backoff.js';
import { ManifestView } from './manifest-view.js';
import { relativeDeps, RemoteResults } from './remote-results.js';

const D1 = 'sha256:' + '1'.repeat(64);
const D2 = 'sha256:' + '2'.repeat(64);
const D3 = 'git-sha1:' + '3'.repeat(40);
const W = '/work/x';

test('a cached result is served only when the manifest answers every recorded question the same way', () => {
  const base = new ManifestView({ 'app.jsonnet': D1, 'lib/a.libsonnet': D2, 'other.txt': D3 });
  const deps = relativeDeps(
    [
      { path: `${W}/app.jsonnet`, exists: true, digest: '9'.repeat(64) },
      { path: `${W}/lib/a.libsonnet`, exists: true, digest: '9'.repeat(64) },
      { path: `${W}/vendor/a.libsonnet`, exists: false },
      { path: `${W}/lib`, exists: true, kind: 'dir', digest: 'x' },
      { path: `${W}/lib/probe`, exists: false },
      { path: '/etc/passwd', exists: false },
    ],
    W,
    base,
  );
  assert.ok(deps);
  const results = new RemoteResults(1 << 20);
  results.set('team-a', 'k', deps, { exitCode: 0, stdout: 'out', stderr: '' });
  const cases: [string, Record<string, string>, boolean][] = [
    ['same manifest', { 'app.jsonnet': D1, 'lib/a.libsonnet': D2, 'other.txt': D3 }, true],
    ['an unread file changed', { 'app.jsonnet': D1, 'lib/a.libsonnet': D2, 'other.txt': D1 }, true],
    ['a read file changed', { 'app.jsonnet': D1, 'lib/a.libsonnet': D1, 'other.txt': D3 }, false],
    ['a missing path appeared', { 'app.jsonnet': D1, 'lib/a.libsonnet': D2, 'vendor/a.libsonnet': D1 }, false],
    ['a listed directory gained an entry', { 'app.jsonnet': D1, 'lib/a.libsonnet': D2, 'lib/b': D1 }, false],
  ];
  for (const [what, files, hit] of cases)
    assert.equal(results.get('team-a', 'k', new ManifestView(files)) !== undefined, hit, what);
  assert.equal(results.get('team-b', 'k', base), undefined, 'another tenant never sees the entry');
});

test('renders that touched unreadable paths or existing outside paths are not cached', () => {
  const view = new ManifestView({ 'a.jsonnet': D1 });
  assert.equal(relativeDeps([{ path: `${W}/a.jsonnet`, exists: true, digest: 'unreadable' }], W, view), undefined);
  assert.equal(relativeDeps([{ path: '/etc/passwd', exists: true, digest: '1'.repeat(64) }], W, view), undefined);
});

test('poison inputs: refused after k failures for the cool-down, released by success or time (hazard 20)', () => {
  let now = 1000;
  const b = new FailureBackoff(3, 60_000, () => now);
  b.recordFailure('k', 'timeout');
  b.recordFailure('k', 'timeout');
  assert.equal(b.refused('k'), undefined);
  b.recordFailure('k', 'memory');
  assert.equal(b.refused('k')?.lastReason, 'memory');
  assert.equal(b.refused('other'), undefined, 'a fixed input is another key');
  now += 60_001;
  assert.equal(b.refused('k'), undefined);
  b.recordFailure('j', 'crash');
  b.recordSuccess('j');
  b.recordFailure('j', 'crash');
  assert.equal(b.refused('j'), undefined);
});
