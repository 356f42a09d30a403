import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.manifestToml layout', () => {
  const value: JsonValue = {
    title: 'x',
    n: 1.42,
    list: [1, [2, 3], { k: 'v' }],
    owner: { name: 'me', 'dotted.key': true, deep: { z: [] } },
    items: [{ id: 1 }, {}],
    'a b': '',
  };
  assert.equal(
    call('manifestToml', value),
    [
      '"a b" = ""',
      'list = [',
      '  1,',
      '  [ 2, 3 ],',
      '  { k = "v" }',
      ']',
      'n = 1.4199999999999999',
      'title = "x"',
      '',
      '[[items]]',
      '  id = 1',
      '',
      '[[items]]',
      '',
      '[owner]',
      '  "dotted.key" = true',
      '  name = "me"',
      '',
      '  [owner.deep]',
      '    z = []',
    ].join('\n'),
  );
  assert.equal(call('manifestTomlEx', { s: { t: { u: 1 } } }, '\t'), '\n\n[s]\n\n\n\t[s.t]\n\t\tu = 1');
  assert.equal(call('manifestToml', { '': { x: {} } }), "\n\n['']\n\n\n  [''.x]");
});

test('std.manifestToml errors', () => {
  assert.equal(errorOf('manifestTomlEx', [1], '  '), 'TOML body must be an object. Got array');
  assert.equal(errorOf('manifestTomlEx', {}, 1), 'Unexpected type number, expected string');
  assert.equal(errorOf('manifestToml', { a: { b: [1, null] } }), 'Tried to manifest "null" at [a b 1]');
});
