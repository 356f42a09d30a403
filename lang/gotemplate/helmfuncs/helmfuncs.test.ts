// Helm profile tables: toYaml as sigs.k8s.io/yaml (go-yaml v2) prints, include/tpl/required/fail, YAML/JSON readers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoFloat, helmErrorMessage, marshalYaml, parseTemplate, profiles, TemplateError } from '../index.js';

function run(src: string, data: unknown = {}): string {
  return parseTemplate('t', src, { functions: profiles.helm }).execute('t', data);
}

const yamlCases: [string, unknown, string][] = [
  ['scalar string', 'plain', 'plain\n'],
  ['int', 3, '3\n'],
  ['float integral', new GoFloat(3), '3\n'],
  ['float', 1.5, '1.5\n'],
  ['float exponent', 12345678.5, '1.23456785e+07\n'],
  ['tiny float', 1e-7, '1e-07\n'],
  ['null', null, 'null\n'],
  ['bool', true, 'true\n'],
  ['empty map', {}, '{}\n'],
  ['empty list', [], '[]\n'],
  ['sorted keys', { b: 1, a: 2, B: 3 }, 'B: 3\na: 2\nb: 1\n'],
  ['nested map', { a: { b: { c: 1 } } }, 'a:\n  b:\n    c: 1\n'],
  ['list under key is not indented', { a: [1, 2] }, 'a:\n- 1\n- 2\n'],
  ['list of maps', { a: [{ x: 1, w: 2 }, { z: 3 }] }, 'a:\n- w: 2\n  x: 1\n- z: 3\n'],
  ['list of lists', [[1, 2], [3]], '- - 1\n  - 2\n- - 3\n'],
  ['map in list in map', { a: [{ b: [1] }] }, 'a:\n- b:\n  - 1\n'],
  [
    'strings that resolve to other types are double-quoted',
    {
      a: 'true',
      b: '1',
      c: '',
      d: 'null',
      e: 'yes',
      f: '1.5',
      g: '0x1F',
      h: '2024-01-01',
      i: '~',
      j: '1_000',
      k: '.5',
    },
    'a: "true"\nb: "1"\nc: ""\nd: "null"\ne: "yes"\nf: "1.5"\ng: "0x1F"\nh: "2024-01-01"\ni: "~"\nj: "1_000"\nk: ".5"\n',
  ],
  [
    'indicator strings are single-quoted',
    { a: 'x: y', b: '- x', c: '*x', d: ' lead', e: "it's: x", f: '#c', g: 'a #c', h: '@x', i: '{x}' },
    "a: 'x: y'\nb: '- x'\nc: '*x'\nd: ' lead'\ne: 'it''s: x'\nf: '#c'\ng: 'a #c'\nh: '@x'\ni: '{x}'\n",
  ],
  [
    'safe punctuation stays plain',
    { a: 'a:b', b: 'x#y', c: 'http://x/y?z=1', d: 'a-b', e: 'é' },
    'a: a:b\nb: x#y\nc: http://x/y?z=1\nd: a-b\ne: é\n',
  ],
  ['yaml 1.1 keys are quoted', { n: 1, y: 2, on: 3 }, '"n": 1\n"on": 3\n"y": 2\n'],
  ['multi-line literal', { a: 'x\ny' }, 'a: |-\n  x\n  y\n'],
  ['multi-line with trailing newline', { a: 'x\ny\n' }, 'a: |\n  x\n  y\n'],
  ['multi-line with blank line', { a: 'x\n\ny' }, 'a: |-\n  x\n\n  y\n'],
  ['multi-line leading space gets indent hint', { a: ' x\ny' }, 'a: |2-\n   x\n  y\n'],
  ['multi-line with tab is double-quoted', { a: 'x\ty\nz' }, 'a: "x\\ty\\nz"\n'],
  ['trailing space multi-line is double-quoted', { a: 'x \ny' }, 'a: "x \\ny"\n'],
  ['nested literal indent', { a: { b: 'x\ny' } }, 'a:\n  b: |-\n    x\n    y\n'],
  ['literal in list', ['x\ny'], '- |-\n  x\n  y\n'],
  ['control characters escaped', { a: 'x\u0001' }, 'a: "x\\x01"\n'],
  [
    'long plain string folds past column 80',
    { k: 'a'.repeat(50) + ' ' + 'b'.repeat(40) + ' c' },
    `k: ${'a'.repeat(50)} ${'b'.repeat(40)}\n  c\n`,
  ],
  ['long single-quoted folds', { k: "'" + 'a'.repeat(85) + ' b' }, `k: '''${'a'.repeat(85)}\n  b'\n`],
  ['large integral float stays int', new GoFloat(1e15), '1000000000000000\n'],
  ['huge float', new GoFloat(1e21), '1e+21\n'],
  // go-yaml v2 sorts keys in its natural order (digit runs as numbers), not by code point;
  // sigs.k8s.io/yaml's fork has no digit-run fix, so `a1_` comes before `a1b`.
  [
    'natural key order of yaml.v2',
    { b: 0, a10: 0, a9: 0, A: 0, _x: 0, '1': 0, a1b: 0, a1_: 0 },
    '_x: 0\n"1": 0\nA: 0\na1_: 0\na1b: 0\na9: 0\na10: 0\nb: 0\n',
  ],
  ['int64 beyond 2^53 keeps its digits', { num: 9007199254740993n }, 'num: 9007199254740993\n'],
  ['float with an integral JSON text reads back as an int', { f: new GoFloat(3) }, 'f: 3\n'],
  ['long key uses the ? form', { ['k'.repeat(130)]: 1 }, `? ${'k'.repeat(130)}\n: 1\n`],
];

for (const [name, value, want] of yamlCases) {
  test(`toYaml: ${name}`, () => assert.equal(marshalYaml(value), want));
}

test('toYaml trims the final newline; NaN gives ""', () => {
  assert.equal(run('{{ toYaml . }}', { a: 1, b: [1] }), 'a: 1\nb:\n- 1');
  assert.equal(run('{{ toYaml .x }}|', { x: NaN }), '|');
});

test('toYaml | indent as charts use it', () => {
  assert.equal(
    run('spec:\n  {{- toYaml .r | nindent 2 }}', { r: { limits: { cpu: '100m' } } }),
    'spec:\n  limits:\n    cpu: 100m',
  );
});

test('fromYaml reads YAML 1.1 with float64 numbers; errors land in .Error', () => {
  assert.equal(
    run('{{ $m := fromYaml .s }}{{ $m.a }} {{ typeOf $m.a }} {{ $m.b }} {{ $m.c }} {{ $m.d }}', {
      s: 'a: 1\nb: [x, yes]\nc: 1.5\nd: ~',
    }),
    '1 float64 [x true] 1.5 <no value>',
  );
  assert.match(
    run('{{ (fromYaml .s).Error }}', { s: '- 1' }),
    /cannot unmarshal array into Go value of type map\[string\]interface \{\}/,
  );
  assert.equal(run('{{ fromYamlArray .s }}', { s: '- 1\n- a' }), '[1 a]');
  assert.match(run('{{ fromYaml .s }}', { s: 'a: [' }), /^map\[Error:error converting YAML to JSON: yaml: /);
});

test('fromYaml keeps timestamps and 1:20 as strings (go-yaml v2)', () => {
  assert.equal(
    run('{{ $m := fromYaml .s }}{{ $m.a }} {{ $m.b }} {{ $m.c }} {{ typeOf $m.a }}', {
      s: 'a: 2024-01-01\nb: 1:20\nc: 0777',
    }),
    '2024-01-01 1:20 511 string',
  );
});

test('YAML alias bombs are refused', () => {
  const bomb =
    'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
  assert.match(run('{{ (fromYaml .s).Error }}', { s: bomb }), /alias/i);
});

test('fromJson/fromJsonArray/toJson as Helm defines them', () => {
  assert.equal(
    run('{{ (fromJson .s).a }} {{ fromJsonArray "[1,\\"x\\"]" }} {{ toJson (dict "a" 1) }}', { s: '{"a": 2}' }),
    '2 [1 x] {"a":1}',
  );
  assert.match(
    run('{{ (fromJson "[1]").Error }}'),
    /json: cannot unmarshal array into Go value of type map\[string\]interface \{\}/,
  );
});

test('include renders a named template and pipes', () => {
  assert.equal(run('{{ define "n" }}name-{{ .x }}{{ end }}{{ include "n" . | upper }}', { x: 'a' }), 'NAME-A');
});

test('include of an unknown template', () => {
  assert.throws(() => run('{{ include "nope" . }}'), {
    message:
      'template: t:1:3: executing "t" at <include "nope" .>: error calling include: template: no template "nope" associated with template "t"',
  });
});

test("include self-recursion stops with Helm's named limit error", () => {
  assert.throws(
    () => run('{{ define "r" }}{{ include "r" . }}{{ end }}{{ include "r" . }}'),
    (e: unknown) =>
      e instanceof TemplateError &&
      e.code === 'TPL_LIMIT' &&
      /rendering template has a nested reference name: r: unable to execute template/.test(e.message),
  );
});

test('tpl renders text against data, dropping <no value>', () => {
  assert.equal(run('{{ tpl .t . }}', { t: '{{ .a }}-{{ .missing }}', a: 'x' }), 'x-');
  assert.equal(run('{{ define "d" }}D{{ end }}{{ tpl "{{ include \\"d\\" . }}" . }}'), 'D');
  assert.match(
    String(catchMessage(() => run('{{ tpl "{{ .a" . }}'))),
    /error calling tpl: cannot parse template "\{\{ \.a": template: t:1: unclosed action/,
  );
});

test("required and fail produce Helm's execution error after cleanup", () => {
  const m1 = catchMessage(() => run('x\n{{ required "a is required" .a }}'));
  assert.equal(helmErrorMessage(m1), 'execution error at (t:2:3): a is required');
  assert.equal(run('{{ required "r" .a }}', { a: 'v' }), 'v');
  const m2 = catchMessage(() => run('{{ fail "no way" }}'));
  assert.equal(helmErrorMessage(m2), 'execution error at (t:1:3): no way');
  assert.equal(
    helmErrorMessage('template: t:1:2: executing "t" at <.x>: other'),
    'template: t:1:2: executing "t" at <.x>: other',
  );
});

test('lookup returns an empty map; toToml', () => {
  assert.equal(run('{{ lookup "v1" "Secret" "ns" "n" }}'), 'map[]');
  assert.equal(
    run('{{ toToml . }}', { a: 1, b: { c: 'x', d: new GoFloat(1) }, e: [1, 2] }),
    'a = 1\ne = [1, 2]\n\n[b]\n  c = "x"\n  d = 1.0\n',
  );
});

function catchMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}
