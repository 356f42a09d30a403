/**
 * go-yaml v2 emitter cases, written from the rules of encode.go, resolve.go
 * and emitterc.go (no Go here to diff against, so each expectation is
 * derived by hand from those rules; comments say which rule).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../../lang/common/json.js';
import { jsonObject } from '../../lang/common/json.js';
import { formatYamlDocuments, goFloatYamlText, marshalKubecfgYaml } from './yaml.js';
import { marshalYaml } from '../../lang/go/yaml-v2-emit/index.js';

const words = (n: number, w = 'abcd'): string => Array(n).fill(w).join(' ');

const valueCases: [string, JsonValue, string][] = [
  // strings that would resolve to another type are double-quoted (resolve.go)
  ['bool yes', 'yes', '"yes"'],
  ['bool on', 'on', '"on"'],
  ['bool Off', 'Off', '"Off"'],
  ['bool y', 'y', '"y"'],
  ['not a bool', 'nO', 'nO'],
  ['float text', '1.0', '"1.0"'],
  ['octal', '0777', '"0777"'],
  ['hex', '0x1F', '"0x1F"'],
  ['0o octal', '0o17', '"0o17"'],
  ['binary', '0b101', '"0b101"'],
  ['underscored int', '1_000', '"1_000"'],
  ['signed int', '+1', '"+1"'],
  ['negative int', '-1', '"-1"'],
  ['bad octal is a float', '08', '"08"'],
  ['uint64 range', '9223372036854775808', '"9223372036854775808"'],
  ['beyond uint64 still a float', '18446744073709551616', '"18446744073709551616"'],
  ['hex beyond uint64 is a string', '0xFFFFFFFFFFFFFFFFFF', '0xFFFFFFFFFFFFFFFFFF'],
  ['float overflow is a string', '1e400', '1e400'],
  ['dot float', '.5', '".5"'],
  ['lone dot', '.', '.'],
  ['tilde', '~', '"~"'],
  ['null', 'null', '"null"'],
  ['Null', 'Null', '"Null"'],
  ['empty', '', '""'],
  ['infinity', '+.inf', '"+.inf"'],
  ['nan', '.NaN', '".NaN"'],
  ['odd-case nan is a string', '.nAn', '.nAn'],
  ['merge key text is not checked (hint of "<" is none)', '<<', '<<'],
  ['base 60', '1:20', '"1:20"'],
  ['base 60 long', '190:20:30.15', '"190:20:30.15"'],
  ['date', '2001-12-14', '"2001-12-14"'],
  ['impossible date', '2001-02-30', '2001-02-30'],
  ['leap day', '2004-02-29', '"2004-02-29"'],
  ['space timestamp', '2001-12-14 21:59:43.10', '"2001-12-14 21:59:43.10"'],
  ['t timestamp with zone', '2001-12-14t21:59:43.10-05:00', '"2001-12-14t21:59:43.10-05:00"'],
  ['T timestamp without zone is not one', '2001-12-14T21:59:43', '2001-12-14T21:59:43'],
  ['timestamp with short zone is not one', '2001-12-14 21:59:43.10 -5', '2001-12-14 21:59:43.10 -5'],
  // indicators make plain impossible; single quotes are used (emitterc.go analyze_scalar)
  ['colon space', 'a: b', "'a: b'"],
  ['trailing colon', 'a:', "'a:'"],
  ['colon inside', 'a:b', 'a:b'],
  ['dash space', '- x', "'- x'"],
  ['lone dash', '-', "'-'"],
  ['dash word', '-x', '-x'],
  ['star', '*x', "'*x'"],
  ['ampersand', '&x', "'&x'"],
  ['bang', '!x', "'!x'"],
  ['percent', '%x', "'%x'"],
  ['at', '@x', "'@x'"],
  ['backtick', '`x', "'`x'"],
  ['question word', '?x', '?x'],
  ['question space', '? x', "'? x'"],
  ['open bracket', '[x', "'[x'"],
  ['close bracket inside', 'x]', 'x]'],
  ['braces', '{a}', "'{a}'"],
  ['pipe', '|', "'|'"],
  ['gt', '>', "'>'"],
  ['hash inside', 'a#b', 'a#b'],
  ['comment', 'a #b', "'a #b'"],
  ['document marker', '---', "'---'"],
  ['document end', '...', "'...'"],
  ['quotes', "'q'", "'''q'''"],
  ['double quotes', '"q"', `'"q"'`],
  ['apostrophe', "it's", "it's"],
  ['leading space', ' x', "' x'"],
  ['trailing space', 'x ', "'x '"],
  ['tab', 'a\tb', '"a\\tb"'],
  ['control', '\x01', '"\\x01"'],
  ['escape char', '\x1b', '"\\e"'],
  ['DEL', '\x7f', '"\\x7F"'],
  ['carriage return', 'a\rb', '"a\\rb"'],
  ['NEL', 'a\u0085b', '"a\\Nb"'],
  ['C1 control', '\u0090', '"\\x90"'],
  ['non-ASCII', 'héllo 你好', 'héllo 你好'],
  ['no-break space is printable', 'a\u00a0b', 'a\u00a0b'],
  ['astral char is not printable for libyaml', '😀', '"\\U0001F600"'],
  ['leading BOM escapes every char', '\ufeffab', '"\\uFEFF\\x61\\x62"'],
  ['lone surrogate becomes U+FFFD', 'a\ud800', 'a\ufffd'],
  ['U+FFFE', '\ufffe', '"\\uFFFE"'],
  // numbers are float64 through encoding/json, printed with strconv 'g'
  ['int', 1, '1'],
  ['float', 1.5, '1.5'],
  ['million', 1000000, '1e+06'],
  ['port', 8080, '8080'],
  ['six digits', 123456, '123456'],
  ['negative zero', -0, '-0'],
  ['big', 1e21, '1e+21'],
  ['small', 0.00001, '1e-05'],
  ['bool', true, 'true'],
  ['null value', null, 'null'],
  ['empty map', {}, '{}'],
  ['empty list', [], '[]'],
];

test('scalar styles as map values', () => {
  for (const [name, value, want] of valueCases) {
    assert.equal(marshalKubecfgYaml(jsonObject([['k', value]])), `k: ${want}\n`, name);
  }
});

const documentCases: [string, JsonValue, string][] = [
  ['literal clip', { k: 'a\nb\n' }, 'k: |\n  a\n  b\n'],
  ['literal strip', { k: 'a\nb' }, 'k: |-\n  a\n  b\n'],
  ['literal keep', { k: 'a\nb\n\n' }, 'k: |+\n  a\n  b\n\n'],
  ['literal single newline keeps', { k: '\n' }, 'k: |2+\n\n'],
  ['literal leading break gets an indent hint', { k: '\na' }, 'k: |2-\n\n  a\n'],
  ['literal leading space gets an indent hint', { k: ' a\nb' }, 'k: |2-\n   a\n  b\n'],
  ['space before break forbids block style', { k: 'a \nb' }, 'k: "a \\nb"\n'],
  ['space after break is fine for block style', { k: 'a\n b' }, 'k: |-\n  a\n   b\n'],
  ['tab forbids block style', { k: 'a\tb\nc' }, 'k: "a\\tb\\nc"\n'],
  ['trailing space forbids block style', { k: 'a\nb ' }, 'k: "a\\nb "\n'],
  ['literal inside a nested sequence', { k: [['x\ny']] }, 'k:\n- - |-\n    x\n    y\n'],
  ['root literal', 'a\nb', '|-\n  a\nb\n'.replace('\nb', '\n  b')],
  ['root scalar', 'x', 'x\n'],
  ['root number', 3, '3\n'],
  ['root list', [1, 'a'], '- 1\n- a\n'],
  ['nested lists', [[1, 2], [3]], '- - 1\n  - 2\n- - 3\n'],
  ['list of maps', [{ a: 1, b: 2 }], '- a: 1\n  b: 2\n'],
  ['sequence under a key is not indented', { a: { b: [1, { c: [] }] } }, 'a:\n  b:\n  - 1\n  - c: []\n'],
  ['keys that resolve are quoted', { on: 1, '1': 2 }, '"1": 2\n"on": 1\n'],
  ['empty key', { '': 1 }, '"": 1\n'],
  ['key with space', { 'a b': 1 }, 'a b: 1\n'],
  ['multi-line key uses the ? form', { 'a\nb': 1 }, '? |-\n  a\n  b\n: 1\n'],
  ['key over 128 bytes uses the ? form', { ['k'.repeat(129)]: 1 }, `? ${'k'.repeat(129)}\n: 1\n`],
  ['key of 128 bytes is simple', { ['k'.repeat(128)]: 1 }, `${'k'.repeat(128)}: 1\n`],
  ['long key with a list value', { ['k'.repeat(129)]: [1] }, `? ${'k'.repeat(129)}\n: - 1\n`],
  ['simple keys are never wrapped', { [words(25)]: 1 }, `${words(25)}: 1\n`],
  ['complex keys wrap like values', { [words(30)]: 1 }, `? ${words(16)}\n  ${words(14)}\n: 1\n`],
];

test('document layout', () => {
  for (const [name, value, want] of documentCases) assert.equal(marshalKubecfgYaml(value), want, name);
});

test('plain scalars wrap at the first space past column 80', () => {
  assert.equal(marshalKubecfgYaml({ k: words(30) }), `k: ${words(16)}\n  ${words(14)}\n`);
  // the same text nested one level deeper continues at the deeper indent
  assert.equal(marshalKubecfgYaml({ a: { k: words(30) } }), `a:\n  k: ${words(16)}\n    ${words(14)}\n`);
  // a run of spaces is never split
  const spaced = words(16) + '  ' + 'tail';
  assert.equal(marshalKubecfgYaml({ k: spaced }), `k: ${spaced}\n`);
  // a single long word cannot wrap
  const long = 'x'.repeat(200);
  assert.equal(marshalKubecfgYaml({ k: long }), `k: ${long}\n`);
});

test('quoted scalars wrap too', () => {
  // single-quoted because of the leading '*'
  assert.equal(marshalKubecfgYaml({ k: '*' + words(30) }), `k: '*${words(16)}\n  ${words(14)}'\n`);
  // double-quoted because of a tab; a double space at the break is kept with a backslash
  const text = 'x\t' + words(15) + '  ' + words(10);
  const line1 = `k: "x\\t${words(15)}`;
  assert.equal(marshalKubecfgYaml({ k: text }), `${line1}\n  \\ ${words(10)}"\n`);
});

test('key order: go-yaml natural order (kubecfg fork)', () => {
  const obj = jsonObject(['b', 'a10', 'a9', 'A', '_x', '1', 'a1b', 'a1_'].map((k) => [k, 0]));
  assert.equal(marshalKubecfgYaml(obj), '_x: 0\n"1": 0\nA: 0\na1b: 0\na1_: 0\na9: 0\na10: 0\nb: 0\n');
  // gopkg.in/yaml.v2 v2.4.0 (no digit-run fix) puts non-letters first even after a digit
  const v2 = marshalYaml(
    jsonObject([
      ['a1b', 0],
      ['a1_', 0],
    ]),
    { numberText: goFloatYamlText, digitRunFix: false },
  );
  assert.equal(v2, 'a1_: 0\na1b: 0\n');
});

test('show -o yaml framing', () => {
  assert.equal(formatYamlDocuments([]), '');
  assert.equal(formatYamlDocuments([{ a: 1 }, { b: 'x' }]), '---\na: 1\n---\nb: x\n');
});

test('__proto__ keys are ordinary keys', () => {
  const obj = jsonObject([['__proto__', 1]]);
  assert.equal(marshalKubecfgYaml(obj), '__proto__: 1\n');
});
