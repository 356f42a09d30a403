/**
 * The YAML of `kcl run` (serde_yaml over libyaml): which strings stay plain,
 * which are single-quoted (they would read back as null, bool or a number, or
 * start with an indicator), which need double quotes (control characters),
 * literal blocks for multi-line strings, float text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeYaml } from './printer.js';
import { KDict, KFloat, type Value } from './value.js';

const y = (v: Value): string => encodeYaml(KDict.of([['k', v]]));

const STRINGS: [string, string][] = [
  ['plain', 'k: plain\n'],
  ["it's", "k: it's\n"],
  ['true', "k: 'true'\n"],
  ['False', "k: 'False'\n"],
  ['null', "k: 'null'\n"],
  ['~', "k: '~'\n"],
  ['', "k: ''\n"],
  ['123', "k: '123'\n"],
  ['-1.5', "k: '-1.5'\n"],
  ['1e3', "k: '1e3'\n"],
  ['0x1F', "k: '0x1F'\n"],
  ['.inf', "k: '.inf'\n"],
  ['yes', 'k: yes\n'],
  ['1.2.3', 'k: 1.2.3\n'],
  ['a: b', "k: 'a: b'\n"],
  ['a:b', 'k: a:b\n'],
  ['x #y', "k: 'x #y'\n"],
  ['x#y', 'k: x#y\n'],
  ['#x', "k: '#x'\n"],
  ['- x', "k: '- x'\n"],
  ['-x', 'k: -x\n'],
  ['@x', "k: '@x'\n"],
  ['*x', "k: '*x'\n"],
  [' lead', "k: ' lead'\n"],
  ['trail ', "k: 'trail '\n"],
  ["a'b: c", "k: 'a''b: c'\n"],
  ['a\tb', 'k: "a\\tb"\n'],
  ['a\nb', 'k: |-\n  a\n  b\n'],
  ['a\nb\n', 'k: |\n  a\n  b\n'],
  ['a\n\nb\n', 'k: |\n  a\n\n  b\n'],
  ['a\nb\n\n', 'k: |+\n  a\n  b\n\n'],
  ['  x\ny', 'k: |2-\n    x\n  y\n'],
  ['a \nb', 'k: "a \\nb"\n'],
  ['https://x.example/a?b=c', 'k: https://x.example/a?b=c\n'],
];

for (const [s, want] of STRINGS) test(`string ${JSON.stringify(s)}`, () => assert.equal(y(s), want));

test('floats print as Rust prints them', () => {
  assert.equal(y(new KFloat(1)), 'k: 1.0\n');
  assert.equal(y(new KFloat(0.1)), 'k: 0.1\n');
  assert.equal(y(new KFloat(1e20)), 'k: 1e20\n');
  assert.equal(y(new KFloat(1.5e-7)), 'k: 1.5e-7\n');
  assert.equal(y(new KFloat(-2.5)), 'k: -2.5\n');
});

test('keys are quoted by the same rules', () => {
  assert.equal(
    encodeYaml(
      KDict.of([
        ['1', 1],
        ['a b', 2],
        ['true', 3],
        ['x: y', 4],
      ]),
    ),
    "'1': 1\na b: 2\n'true': 3\n'x: y': 4\n",
  );
});

test('a multi-line string inside a list and a nested mapping', () => {
  const v = KDict.of([
    [
      'l',
      [
        'a\nb\n',
        KDict.of([
          ['m', 'c\nd'],
          ['n', 1],
        ]),
      ],
    ],
  ]);
  assert.equal(encodeYaml(v), 'l:\n- |\n  a\n  b\n- m: |-\n    c\n    d\n  n: 1\n');
});
