import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kubecfgLibsonnet } from './kubecfg-lib.js';

const JSONNET = '/usr/bin/jsonnet';

/** Evaluates code with `kubecfg` bound to our library, using the C++ jsonnet oracle. */
function evaluate(code: string): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'kubecfg-lib-'));
  try {
    writeFileSync(join(dir, 'kubecfg.libsonnet'), kubecfgLibsonnet);
    const out = execFileSync(JSONNET, ['-J', dir, '-e', `local kubecfg = import 'kubecfg.libsonnet'; ${code}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const objs = `{
  a: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
  l: { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns' } }] },
  n: null,
  arr: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }],
}`;

const cases: [string, string, unknown][] = [
  [
    'fold collects in field order',
    `kubecfg.fold(function(acc, o) acc + [o.metadata.name], ${objs}, [])`,
    ['x', 's', 'd'],
  ],
  [
    'gvkName layout',
    `std.objectFields(kubecfg.fold(kubecfg.layouts.gvkName, ${objs}, {}))`,
    ['apps/v1.Deployment', 'v1.ConfigMap', 'v1.Secret'],
  ],
  [
    'gvkNsName layout',
    `kubecfg.fold(kubecfg.layouts.gvkNsName, ${objs}, {})['apps/v1.Deployment'].ns.d.kind`,
    'Deployment',
  ],
  [
    'gvkNsName default namespace',
    `std.objectFields(kubecfg.fold(kubecfg.layouts.gvkNsName, ${objs}, {})['v1.ConfigMap'])`,
    ['_'],
  ],
  [
    'deepMap keeps shape',
    `kubecfg.deepMap(function(o) o { metadata+: { labels: { a: 'b' } } }, ${objs}).l.items[0].metadata.labels`,
    { a: 'b' },
  ],
  ['deepMap null', `kubecfg.deepMap(function(o) o, null)`, null],
  [
    'isK8sObject',
    `[kubecfg.isK8sObject({ apiVersion: 'v1', kind: 'X' }), kubecfg.isK8sObject({ kind: 'X' }), kubecfg.isK8sObject(1)]`,
    [true, false, false],
  ],
  [
    'toOverlay extends nested objects',
    `{ a: { b: 1, c: 2 }, d: [1] } + kubecfg.toOverlay({ a: { b: 3 }, d: [2] })`,
    { a: { b: 3, c: 2 }, d: [2] },
  ],
  [
    'getPath',
    `[kubecfg.getPath({ a: { b: { c: 1 } } }, 'a.b.c'), kubecfg.getPath({ a: {} }, 'a.x', 'dflt'), kubecfg.getPath({ a:: { b: 2 } }, 'a.b')]`,
    [1, 'dflt', 2],
  ],
  [
    'objectHasPath',
    `[kubecfg.objectHasPath({ a: { b: 1 } }, 'a.b'), kubecfg.objectHasPath({ a:: { b: 1 } }, 'a.b'), kubecfg.objectHasPathAll({ a:: { b: 1 } }, 'a.b')]`,
    [true, false, true],
  ],
];

test('kubecfg.libsonnet pure helpers (C++ jsonnet oracle)', (t) => {
  if (!existsSync(JSONNET)) {
    t.skip('no /usr/bin/jsonnet');
    return;
  }
  for (const [name, code, want] of cases) assert.deepEqual(evaluate(code), want, name);
});

test("fold and deepMap refuse scalars with kubecfg's message", (t) => {
  if (!existsSync(JSONNET)) {
    t.skip('no /usr/bin/jsonnet');
    return;
  }
  assert.throws(
    () => evaluate('kubecfg.fold(function(a, o) a, [1], [])'),
    /o must be an object or array of k8s objects, found number/,
  );
  assert.throws(
    () => evaluate(`kubecfg.fold(kubecfg.layouts.gvkName, [${objs}.a, ${objs}.a], {})`),
    /Object assertion failed/,
  );
});
