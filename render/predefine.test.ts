import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hintFor, KUBECFG_LOCAL, predefineKubecfg } from './predefine.js';

const cases: [string, string, boolean][] = [
  ['a free kubecfg is predefined', 'kubecfg.isK8sObject({})', true],
  ['a local named kubecfg wins', "local kubecfg = import 'kubecfg.libsonnet'; kubecfg.x", false],
  ['a parameter named kubecfg wins', 'function(kubecfg) kubecfg.x', false],
  ['an object local named kubecfg wins', '{ local kubecfg = {}, a: kubecfg }', false],
  ['a field named kubecfg is not a use', '{ kubecfg: 1 }.kubecfg', false],
  ['the word in a string is not a use', "'kubecfg'", false],
  ['the word in a comment is not a use', '// kubecfg\n1', false],
  ['a syntax error is left for the evaluator', 'kubecfg.(', false],
  ['used deep inside', '[x for x in [1]] + [kubecfg.fold(function(a, b) a, [], {})]', true],
];

for (const [name, code, added] of cases) {
  test(`RFC06: ${name}`, () => {
    const out = predefineKubecfg('<cmdline>', code);
    assert.equal(out, added ? KUBECFG_LOCAL + code : code);
    assert.equal(out.split('\n').length, code.split('\n').length, 'line numbers do not move');
  });
}

test('RFC06: the hint after Unknown variable: kubecfg', () => {
  assert.match(
    hintFor('STATIC ERROR: a.jsonnet:1:1-8: Unknown variable: kubecfg')!,
    /^hint: kubecfg is not predefined/,
  );
  assert.equal(hintFor('Unknown variable: kubecfgx'), undefined);
});

test('RFC06: code that does not read kubecfg keeps its columns', () => {
  const code = '{ a: 1 }';
  assert.equal(predefineKubecfg('<extvar:x>', code), code);
});
