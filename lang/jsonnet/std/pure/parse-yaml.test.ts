import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.parseYaml: go-yaml v2 scalar resolution', () => {
  const text = [
    'octal: 0777',
    'octal2: 0o17',
    'hex: 0x1F',
    'bin: -0b101',
    'under: 1_000',
    'plus: +12',
    'float: 1e3',
    'dot: .5',
    'yes: yes',
    'onv: On',
    'tilde: ~',
    'empty:',
    'date: 2001-12-14',
    'sexa: 190:20:30',
    'quoted: "0777"',
    "single: 'yes'",
    'nine: 09',
    'neg: -0.0',
    'big: 18446744073709551615',
    'str: !!str 12',
    'flt: !!float 3',
    'block: |',
    '  a',
    '  b',
    '1.5: float key',
    '7: int key',
  ].join('\n');
  assert.deepEqual(call('parseYaml', text), {
    octal: 511,
    octal2: 15,
    hex: 31,
    bin: -5,
    under: 1000,
    plus: 12,
    float: 1000,
    dot: 0.5,
    true: true, // the key `yes` is a boolean too, printed as "true"
    onv: true,
    tilde: null,
    empty: null,
    date: '2001-12-14',
    sexa: '190:20:30',
    quoted: '0777',
    single: 'yes',
    nine: 9,
    neg: -0,
    big: 18446744073709551615,
    str: '12',
    flt: 3,
    block: 'a\nb\n',
    '1.5': 'float key',
    '7': 'int key',
  });
});

test('std.parseYaml: documents, anchors and merges', () => {
  assert.deepEqual(call('parseYaml', 'a: 1\n---\nb: 2\n'), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(call('parseYaml', '---\na: 1\n'), [{ a: 1 }]);
  assert.deepEqual(call('parseYaml', 'a: 1\r\n---  \r\nb: 2'), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(call('parseYaml', 'a: 1\n--- x\n'), { a: 1 }); // go-yaml v2 decodes only the first document of a chunk
  assert.deepEqual(call('parseYaml', '# only a comment\n'), null);
  assert.deepEqual(call('parseYaml', ''), null);
  assert.deepEqual(call('parseYaml', 'base: &b {x: 1, z: 2}\nd:\n  <<: *b\n  z: 3\nl: [*b, *b]\n'), {
    base: { x: 1, z: 2 },
    d: { x: 1, z: 3 },
    l: [
      { x: 1, z: 2 },
      { x: 1, z: 2 },
    ],
  });
  assert.deepEqual(call('parseYaml', 'm:\n  k: 1\n  <<: [{k: 2, j: 1}, {j: 2}]\n'), { m: { k: 2, j: 1 } });
});

test('std.parseYaml errors', () => {
  const prefix = 'failed to parse YAML: error converting YAML to JSON: ';
  assert.equal(errorOf('parseYaml', 'a: .inf'), prefix + 'json: unsupported value: +Inf');
  assert.equal(errorOf('parseYaml', '- .NaN'), prefix + 'json: unsupported value: NaN');
  assert.equal(errorOf('parseYaml', '&a [*a]'), prefix + "yaml: anchor 'a' value contains itself");
  assert.match(
    errorOf('parseYaml', 'a: [1, 2\nb: 3'),
    /^failed to parse YAML: error converting YAML to JSON: yaml: line \d+: /,
  );
  assert.equal(errorOf('parseYaml', 'a: !!int abc'), prefix + 'yaml: cannot decode !!str `abc` as a !!int');
  assert.equal(errorOf('parseYaml', 7), 'Unexpected type number, expected string');
});

test('std.parseYaml rejects an alias bomb quickly and survives deep nesting', () => {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 0; i < 8; i++) {
    const prev = String.fromCharCode(97 + i);
    const cur = String.fromCharCode(98 + i);
    lines.push(
      `${cur}: &${cur} [${Array(9)
        .fill('*' + prev)
        .join(',')}]`,
    );
  }
  assert.equal(
    errorOf('parseYaml', lines.join('\n')),
    'failed to parse YAML: error converting YAML to JSON: yaml: document contains excessive aliasing',
  );
  assert.match(errorOf('parseYaml', '['.repeat(100000)), /^failed to parse YAML: /);
});

test("std.parseYaml: go-yaml's alias budget, not a node count (heavy reuse of a small anchor passes)", () => {
  const text = `base: &b {x: 1}\nitems:\n${Array.from({ length: 25000 }, () => '- *b').join('\n')}\n`;
  const value = call('parseYaml', text) as { items: unknown[] };
  assert.equal(value.items.length, 25000);
  assert.equal(
    errorOf('parseYaml', '- '.repeat(600) + 'x'),
    'failed to parse YAML: error converting YAML to JSON: yaml: exceeded max depth of 500',
  );
});
