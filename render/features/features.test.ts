import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Gates, FeatureError, splitFeatureFlag } from './gates.js';
import { FEATURES } from './registry.js';
import { featuresTable, featuresJson } from './table.js';

const first8 = (table: string) => table.split('\n').slice(0, 9).join('\n') + '\n';

test('RFC05 example: --alpha --features=httpd=false', () => {
  const gates = Gates.resolve(true, [{ name: '--features', items: ['httpd=false'] }]);
  const want = [
    'NAME              STAGE  DEFAULT  ENABLED  SOURCE      SINCE',
    'eval              alpha  off      on       --alpha     v0.40.0',
    'traceback         alpha  off      on       --alpha     v0.40.0',
    'pack              alpha  off      on       --alpha     v0.40.0',
    'httpd             alpha  off      off      --features  v0.40.0',
  ].join('\n');
  assert.ok(featuresTable(gates).startsWith(want + '\n'));
});

test('RFC05 example with an rc file deciding yakl', () => {
  const gates = Gates.resolve(true, [
    { name: '--features', items: ['httpd=false'] },
    { name: '.kubecfgrc.jsonnet', items: ['yakl=true'] },
  ]);
  const want = `NAME              STAGE  DEFAULT  ENABLED  SOURCE              SINCE
eval              alpha  off      on       --alpha             v0.40.0
traceback         alpha  off      on       --alpha             v0.40.0
pack              alpha  off      on       --alpha             v0.40.0
httpd             alpha  off      off      --features          v0.40.0
overlay           alpha  off      on       --alpha             v0.40.0
yakl              alpha  off      on       .kubecfgrc.jsonnet  v0.40.0
kustomize-import  alpha  off      on       --alpha             v0.40.0
binary-import     alpha  off      on       --alpha             v0.40.0
`;
  assert.equal(first8(featuresTable(gates)), want);
});

test('precedence is per feature: the command line adds to the rc file', () => {
  const gates = Gates.resolve(false, [
    { name: '--features', items: ['pack'] },
    { name: '.kubecfgrc.jsonnet', items: ['yakl'] },
  ]);
  assert.equal(gates.enabled('pack'), true);
  assert.equal(gates.enabled('yakl'), true);
  assert.equal(gates.enabled('eval'), false);
});

test('a named feature beats --alpha; later settings win within a source', () => {
  const gates = Gates.resolve(true, [{ name: '--features', items: splitFeatureFlag(['yakl,httpd', 'httpd=false']) }]);
  assert.equal(gates.enabled('httpd'), false);
  assert.equal(gates.enabled('yakl'), true);
  assert.equal(gates.enabled('eval'), true);
});

test('errors: unknown name, bad value', () => {
  assert.throws(() => Gates.resolve(false, [{ name: '--features', items: ['yakll'] }]), FeatureError);
  assert.throws(() => Gates.resolve(false, [{ name: '--features', items: ['yakl=maybe'] }]), /invalid value "maybe"/);
});

test('the gate check message', () => {
  const gates = Gates.resolve(false, []);
  assert.throws(() => gates.require('yakl', 'app.yakl'), {
    message: 'app.yakl: yakl is an alpha feature; turn it on with --features=yakl',
  });
  assert.doesNotThrow(() => Gates.resolve(false, [{ name: '--features', items: ['yakl'] }]).require('yakl'));
});

test('registry rules: unique names, no semantic feature beyond alpha', () => {
  assert.equal(new Set(FEATURES.map((f) => f.name)).size, FEATURES.length);
  for (const f of FEATURES) {
    if (f.kind === 'semantic') assert.ok(f.stage === 'alpha' || f.stage === 'removed', f.name);
  }
});

test('json output lists every feature', () => {
  const data = JSON.parse(featuresJson(Gates.resolve(false, [])));
  assert.deepEqual(
    data.map((d: { name: string }) => d.name),
    FEATURES.map((f) => f.name),
  );
});
