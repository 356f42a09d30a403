import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PathRedactor } from './path-redactor.js';

const ROOT = '/var/lib/kubecfg-remote/work/0123456789abcdef0123456789abcdef';
const r = new PathRedactor({
  workBase: '/var/lib/kubecfg-remote/work',
  labelled: {
    '<blob store>': '/var/lib/kubecfg-remote/blobs',
    '<kubecfg>': '/opt/kubecfg',
  },
});

test('error text: every path of the service becomes relative to the upload root or a label', () => {
  const cases: [string, string][] = [
    [`${ROOT}/app.jsonnet:1:5 Unexpected end of file`, 'app.jsonnet:1:5 Unexpected end of file'],
    [`${ROOT}: is a directory`, '.: is a directory'],
    [`${ROOT}/sub/../lib/a.libsonnet`, 'lib/a.libsonnet'],
    ['/var/lib/kubecfg-remote/x.jsonnet: no such file', '../../x.jsonnet: no such file'],
    ['couldn\'t open import "/var/lib/kubecfg-remote/work/y"', 'couldn\'t open import "../y"'],
    ['/var/lib/kubecfg-remote/work: no such file.', '..: no such file.'],
    ['/var/lib/kubecfg-remote/blobs/t/ab/cd missing', '<blob store>/t/ab/cd missing'],
    ['at f (/opt/kubecfg/dist/lang/jsonnet/eval.js:10:3)', 'at f (<kubecfg>/dist/lang/jsonnet/eval.js:10:3)'],
    // Paths that name nothing of the service, and URLs, stay as written.
    ['/etc/passwd.jsonnet: no such file', '/etc/passwd.jsonnet: no such file'],
    ['/var/lib/other/x', '/var/lib/other/x'],
    ['https://example.com/var/lib/kubecfg-remote/x', 'https://example.com/var/lib/kubecfg-remote/x'],
    ['../../x.jsonnet and lib/a.libsonnet', '../../x.jsonnet and lib/a.libsonnet'],
    // Another request's root is rewritten too (a cached text rendered under another directory).
    ['/var/lib/kubecfg-remote/work/ffffffffffffffffffffffffffffffff/a.jsonnet', 'a.jsonnet'],
  ];
  for (const [input, want] of cases) assert.equal(r.errorText(input), want, input);
});

test("rendered output keeps the user's data: only work directories and labelled directories change", () => {
  assert.equal(r.output(`path: ${ROOT}/data.txt`), 'path: data.txt');
  assert.equal(r.output('path: /var/lib/kubecfg-remote/cache'), 'path: /var/lib/kubecfg-remote/cache');
  assert.equal(r.output('dir: /var/lib/kubecfg-remote/work/x'), 'dir: ../x');
  assert.equal(r.output('a: /var/lib/kubecfg-remote/blobs/x'), 'a: <blob store>/x');
});

test('JSON-RPC error data: every string inside is rewritten', () => {
  assert.deepEqual(r.value({ reason: 'memory', paths: [`${ROOT}/a`, 3], nested: { p: '/opt/kubecfg/x' } }), {
    reason: 'memory',
    paths: ['a', 3],
    nested: { p: '<kubecfg>/x' },
  });
});
