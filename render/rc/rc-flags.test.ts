import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagsFromRc, rcOverlaySnippet, RcError, sameRcFileError, type FlagSpec, type RcContext } from './rc-flags.js';

const specs: FlagSpec[] = [
  { name: 'format', kind: 'string' },
  { name: 'jpath', kind: 'stringArray', path: 'path' },
  { name: 'ext-str-file', kind: 'stringArray', path: 'name=path' },
  { name: 'kubeconfig', kind: 'string', path: 'path' },
  { name: 'show-provenance', kind: 'bool' },
];
const ctx = (over: Partial<RcContext> = {}): RcContext => ({
  rcFile: '/repo/.kubecfgrc.jsonnet',
  rcDir: '/repo',
  command: 'show',
  specs,
  allFlagNames: new Set([...specs.map((s) => s.name), 'gc-tag']),
  kubeconfigEnvSet: false,
  resolvePath: (dir, p) => (p.startsWith('/') ? p : `${dir}/${p}`),
  ...over,
});
// What evaluating rcOverlaySnippet gives for RFC02's example file.
const rfcExample = {
  flags: {},
  commands: { show: { format: 'json', jpath: ['testdata'] }, update: {} },
};

test('RFC02 example: commands.show gives show its defaults, paths against the rc dir', () => {
  assert.deepEqual(flagsFromRc(rfcExample, ctx()).defaults, { format: 'json', jpath: ['/repo/testdata'] });
  assert.deepEqual(flagsFromRc(rfcExample, ctx({ command: 'update' })).defaults, {});
});

test('features: object and array forms, only under flags', () => {
  const obj = {
    flags: { features: { yakl: true, knit: false } },
    commands: { show: { features: { yakl: true, knit: false } } },
  };
  assert.deepEqual(flagsFromRc(obj, ctx()).features, ['knit=false', 'yakl=true']);
  const arr = { flags: { features: ['yakl'] }, commands: {} };
  assert.deepEqual(flagsFromRc(arr, ctx()).features, ['yakl']);
  const bad = { flags: {}, commands: { show: { features: { yakl: true } } } };
  assert.throws(() => flagsFromRc(bad, ctx()), /features can only be set under flags, not under commands.show/);
});

test('types: a string for a list is one element; a number for a string is an error', () => {
  const one = flagsFromRc({ flags: { jpath: 'lib' }, commands: {} }, ctx());
  assert.deepEqual(one.defaults.jpath, ['/repo/lib']);
  assert.throws(
    () => flagsFromRc({ flags: { format: 3 }, commands: {} }, ctx()),
    /flags.format: expected a string, got number/,
  );
});

test("unknown flags name the flag and the rc file; other commands' flags are fine under flags", () => {
  assert.throws(
    () => flagsFromRc({ flags: { formt: 'json' }, commands: {} }, ctx()),
    (e: unknown) => e instanceof RcError && /\/repo\/.kubecfgrc.jsonnet: unknown flag "formt" in flags/.test(e.message),
  );
  assert.deepEqual(flagsFromRc({ flags: { 'gc-tag': 'x' }, commands: {} }, ctx()).defaults, {});
});

test('KUBECONFIG set: the rc kubeconfig is ignored', () => {
  const v = { flags: { kubeconfig: 'kc.yaml' }, commands: {} };
  assert.deepEqual(flagsFromRc(v, ctx()).defaults, { kubeconfig: '/repo/kc.yaml' });
  assert.deepEqual(flagsFromRc(v, ctx({ kubeconfigEnvSet: true })).defaults, {});
});

test('NAME=PATH flags resolve only the path', () => {
  const v = { flags: { 'ext-str-file': ['a=x.txt'] }, commands: {} };
  assert.deepEqual(flagsFromRc(v, ctx()).defaults['ext-str-file'], ['a=/repo/x.txt']);
});

test('the overlay snippet and the several-rc-files error', () => {
  assert.equal(
    rcOverlaySnippet(['show', 'update'], '/repo/.kubecfgrc.jsonnet'),
    '{ flags: {}, commands: { "show": $.flags, "update": $.flags } } + (import "/repo/.kubecfgrc.jsonnet")\n',
  );
  assert.equal(
    sameRcFileError(['testdata/fffbad/two/.kubecfgrc.jsonnet', 'testdata/fffbad/.kubecfgrc.jsonnet']).message,
    'all evaluated files should resolve to the same .kubecfgrc.jsonnet, found ["testdata/fffbad/two/.kubecfgrc.jsonnet" "testdata/fffbad/.kubecfgrc.jsonnet"] instead',
  );
});
