import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { applyRcFile, findRcFile, locateRcFile } from './rc.js';

const root = mkdtempSync(join(tmpdir(), 'kcfg-rc-'));
after(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text: string): string {
  const abs = join(root, rel);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, text);
  return abs;
}

const rcA = put(
  'a/.kubecfgrc.jsonnet',
  "{ flags: { features: ['yakl'], jpath: ['lib'] }, commands+: { show+: { format: 'json' } } }\n",
);
put('a/x/app.jsonnet', '{}\n');
put('b/.kubecfgrc.jsonnet', '{}\n');
put('b/app.jsonnet', '{}\n');
put('c/.kubecfgrc.jsonnet', "{ flags: { kubeconfig: 'kc.yaml' } }\n");

function params(cwd: string, args: string[], flags: CommandParams['flags'] = {}, env = {}): CommandParams {
  const tty = {
    stdoutIsTTY: false,
    stderrIsTTY: false,
    columns: null,
    color: 'never' as const,
    noColor: false,
    forceColor: null,
  };
  return { requestId: 'r', args, flags, cwd, env, tty };
}

test('findRcFile walks up and records the misses', () => {
  const rec = new DependencyRecorder();
  assert.equal(findRcFile(join(root, 'a', 'x'), rec), rcA);
  const paths = rec.deps().map((d) => [d.path, d.exists]);
  assert.deepEqual(paths, [
    [join(root, 'a', 'x', '.kubecfgrc.jsonnet'), false],
    [rcA, true],
  ]);
});

test('locateRcFile: same file for every input, else the RFC02 error with relative names', () => {
  const rec = new DependencyRecorder();
  assert.equal(locateRcFile('show', params(root, ['a/x/app.jsonnet', 'a/.kubecfgrc.jsonnet']), rec), rcA);
  assert.throws(
    () => locateRcFile('show', params(root, ['a/x/app.jsonnet', 'b/app.jsonnet']), rec),
    /found \["b\/.kubecfgrc.jsonnet" "a\/.kubecfgrc.jsonnet"\] instead/,
  );
  // features searches from the cwd only.
  assert.equal(locateRcFile('features', params(join(root, 'a', 'x'), []), rec), rcA);
});

test('applyRcFile: rc values are defaults, CLI flags win, paths resolve against the rc dir', () => {
  const cases: Array<{ flags: CommandParams['flags']; want: Record<string, unknown> }> = [
    { flags: {}, want: { format: 'json', jpath: [join(root, 'a', 'lib')] } },
    { flags: { format: 'yaml' }, want: { format: 'yaml', jpath: [join(root, 'a', 'lib')] } },
    { flags: { jpath: ['mine'] }, want: { format: 'json', jpath: ['mine'] } },
  ];
  for (const c of cases) {
    const got = applyRcFile(
      'show',
      params(join(root, 'a'), ['x/app.jsonnet'], c.flags),
      new DependencyRecorder(),
      () => false,
    );
    assert.deepEqual({ ...got.params.flags }, c.want);
    assert.deepEqual(got.features, ['yakl']);
  }
  const features = applyRcFile('features', params(join(root, 'a'), []), new DependencyRecorder(), () => false);
  assert.deepEqual({ ...features.params.flags }, {}, 'features takes only the features');
  assert.deepEqual(features.features, ['yakl']);
});

test('applyRcFile: a kubeconfig from the rc file is ignored while KUBECONFIG is set', () => {
  const cwd = join(root, 'c');
  const plain = applyRcFile('diff', params(cwd, []), new DependencyRecorder(), () => false);
  assert.equal(plain.params.flags.kubeconfig, join(cwd, 'kc.yaml'));
  const env = applyRcFile('diff', params(cwd, [], {}, { KUBECONFIG: '/k' }), new DependencyRecorder(), () => false);
  assert.equal(env.params.flags.kubeconfig, undefined);
});

test('errors name where the setting is: flags, or the command the rc file changed', () => {
  put('d/.kubecfgrc.jsonnet', "{ flags: { formatt: 'json' } }\n");
  put('e/.kubecfgrc.jsonnet', "{ commands+: { show+: { formatt: 'json' } } }\n");
  const run = (dir: string) => () =>
    applyRcFile('show', params(join(root, dir), []), new DependencyRecorder(), () => false);
  assert.throws(run('d'), /\.kubecfgrc\.jsonnet: unknown flag "formatt" in flags$/);
  assert.throws(run('e'), /\.kubecfgrc\.jsonnet: unknown flag "formatt" in commands\.show$/);
});

test('rc values must be among the values the flag allows', () => {
  put('f/.kubecfgrc.jsonnet', "{ flags: { 'diff-strategy': 'most' } }\n");
  assert.throws(
    () => applyRcFile('diff', params(join(root, 'f'), []), new DependencyRecorder(), () => false),
    /\.kubecfgrc\.jsonnet: diff-strategy: "most" is not one of all, subset, last-applied/,
  );
});
