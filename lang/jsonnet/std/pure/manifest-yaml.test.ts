import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { yamlBareSafe } from './manifest-yaml.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

const doc: JsonValue = {
  name: 'web',
  ports: [{ port: 80, proto: 'TCP' }, { port: 443 }],
  nested: [[1, 2], [], {}],
  script: 'echo a\necho b\n',
  empty: '',
  ratio: 0.1,
  big: 1e21,
  meta: { labels: {}, note: null },
};

test('std.manifestYamlDoc layout', () => {
  assert.equal(
    call('manifestYamlDoc', doc),
    [
      '"big": 1000000000000000000000',
      '"empty": ""',
      '"meta":',
      '  "labels": {}',
      '  "note": null',
      '"name": "web"',
      '"nested":',
      '-',
      '  - 1',
      '  - 2',
      '- []',
      '- {}',
      '"ports":',
      '- "port": 80',
      '  "proto": "TCP"',
      '- "port": 443',
      '"ratio": 0.1',
      '"script": |',
      '  echo a',
      '  echo b',
    ].join('\n'),
  );
  assert.equal(
    call('manifestYamlDoc', { a: [1, { b: ['x\ny\n'] }] }, true, false),
    'a:\n  - 1\n  - b:\n      - |\n        x\n        y',
  );
  assert.equal(call('manifestYamlDoc', []), '[]');
  assert.equal(call('manifestYamlDoc', 'x\n'), '|\n  x');
  assert.equal(call('manifestYamlDoc', '\n'), '|\n  ');
  assert.equal(errorOf('manifestYamlDoc', 1, 'yes'), 'Unexpected type string, expected boolean');
});

test('unquoted keys follow go-jsonnet yamlBareSafe', () => {
  const bare = [
    'abc',
    'a.b',
    '192.168.0.1',
    'jsonnet.org/k8s-label',
    '1-234-567-8901',
    '0X_0a',
    '-0B1010',
    '1e400',
    'x_y-z',
  ];
  const quoted = [
    '',
    'a b',
    'yes',
    'NO',
    'On',
    'y',
    'null',
    '~',
    '-',
    '---',
    '1',
    '-1.5',
    '1_000',
    '.5',
    '2001-12-14',
    '--',
    '0b101',
    'a0x1f',
    'nan',
    'Inf',
    '-infinity',
    '1e5',
    "''",
    'ü',
  ];
  for (const k of bare) assert.equal(yamlBareSafe(k), true, k);
  for (const k of quoted) assert.equal(yamlBareSafe(k), false, k);
});

test('std.manifestYamlStream', () => {
  assert.equal(call('manifestYamlStream', [{ a: 1 }, 2]), '---\n"a": 1\n---\n2\n...\n');
  assert.equal(call('manifestYamlStream', [{ a: [1] }], true, false, false), '---\na:\n  - 1\n');
  assert.equal(call('manifestYamlStream', []), '---\n\n...\n');
  assert.equal(errorOf('manifestYamlStream', { a: 1 }), 'manifestYamlStream only takes arrays, got object');
  assert.equal(errorOf('manifestYamlStream', [1], false, 1), 'Unexpected type number, expected boolean');
});
