import assert from 'node:assert/strict';
import { test } from 'node:test';
import { manifestPathProblem, ParamsError, validateRemoteRender } from './index.js';

const D = 'sha256:' + 'a'.repeat(64);
const params = (over: Record<string, unknown> = {}) => ({
  method: 'render/show',
  params: {
    requestId: 'r',
    args: ['a.jsonnet'],
    flags: {},
    cwd: '.',
    env: {},
    tty: { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null },
  },
  manifest: { 'a.jsonnet': D },
  ...over,
});

test('manifest paths: relative, normalised, no NUL or backslash (hazard 2)', () => {
  for (const bad of ['', '/etc/passwd', '../x', 'a/../b', 'a//b', './a', 'a/.', 'a\0b', 'a\\b', 'x'.repeat(2000)])
    assert.notEqual(manifestPathProblem(bad), undefined, JSON.stringify(bad));
  for (const good of ['a', 'a/b.jsonnet', '..a/b', 'sub/..f', '.kubecfgrc.jsonnet'])
    assert.equal(manifestPathProblem(good), undefined, good);
});

test('remote/render params are checked: method, manifest, digests, cwd', () => {
  assert.equal(validateRemoteRender(params()).method, 'render/show');
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ method: 'render/fmt' }, /params\.method/],
    [{ manifest: { '../x': D } }, /params\.manifest\[0\]: path has/],
    [{ manifest: { a: 'md5:1' } }, /sha256/],
    [{ manifest: [] }, /path → digest/],
  ];
  for (const [over, why] of cases)
    assert.throws(
      () => validateRemoteRender(params(over)),
      (e: Error) => e instanceof ParamsError && why.test(e.message),
    );
  const p = params();
  (p.params as { cwd: string }).cwd = '/abs';
  assert.throws(() => validateRemoteRender(p), /params\.params\.cwd/);
  const hostile = params({ manifest: { '/etc/shadow-SECRET': D } });
  assert.throws(
    () => validateRemoteRender(hostile),
    (e: Error) => !e.message.includes('SECRET'),
  );
});
