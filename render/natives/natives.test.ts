import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../../lang/common/json.js';
import { kubecfgNatives } from './index.js';
import { RenderError } from '../errors.js';

const call = (name: string, ...args: JsonValue[]): JsonValue => kubecfgNatives[name]!.fn(args);
const fails = (f: () => unknown, message: string | RegExp, code?: string): void => {
  assert.throws(
    f,
    (e: unknown) =>
      e instanceof RenderError &&
      (typeof message === 'string' ? e.message === message : message.test(e.message)) &&
      (code === undefined || e.code === code),
  );
};

test('parameter names match kubecfg', () => {
  const params = Object.fromEntries(Object.entries(kubecfgNatives).map(([k, v]) => [k, v.params]));
  assert.deepEqual(params, {
    parseJson: ['json'],
    parseYaml: ['yaml'],
    manifestJson: ['json', 'indent'],
    manifestYaml: ['json'],
    escapeStringRegex: ['str'],
    regexMatch: ['regex', 'string'],
    regexSubst: ['regex', 'src', 'repl'],
    parseHelmChart: ['releaseName', 'namespace', 'chartData', 'values', 'capabilities'],
    resolveImage: ['image'],
    validateJSONSchema: ['obj', 'schema'],
  });
});

test('parseJson', () => {
  assert.deepEqual(call('parseJson', '{"a": [1, 2.5, "x", null, true], "a": 3}'), { a: 3 });
  assert.deepEqual(call('parseJson', '"\\ud800"'), '\ufffd');
  fails(
    () => call('parseJson', '{"a":1,}'),
    "parseJson: invalid character '}' looking for beginning of object key string",
    'RENDER_PARSE_JSON',
  );
  fails(() => call('parseJson', '[1 2]'), "parseJson: invalid character '2' after array element");
  fails(() => call('parseJson', '{'), 'parseJson: unexpected end of JSON input');
  fails(() => call('parseJson', '\ufeff{}'), "parseJson: invalid character 'ï' looking for beginning of value"); // Go reports the first byte
  fails(() => call('parseJson', 'tx'), "parseJson: invalid character 'x' in literal true (expecting 'r')");
  fails(
    () => call('parseJson', '1e999'),
    'parseJson: json: cannot unmarshal number 1e999 into Go value of type float64',
  );
  fails(() => call('parseJson', 3), 'parseJson: parameter json must be a string, got float64', 'RENDER_BAD_ARGUMENT');
});

const yamlCases: [string, string, JsonValue][] = [
  ['documents', 'a: 1\n---\nb: 2\n', [{ a: 1 }, { b: 2 }]],
  ['leading separator', '---\na: 1\n', [{ a: 1 }]],
  ['two separators make an empty document', '---\n---\na: 1\n', [null, { a: 1 }]],
  ['comment-only document is null', 'a: 1\n---\n# c\n', [{ a: 1 }, null]],
  ['trailing separator adds nothing', 'a: 1\n---\n', [{ a: 1 }]],
  ['empty stream', '', []],
  ['CRLF', 'a: 1\r\n---\r\nb: 2\r\n', [{ a: 1 }, { b: 2 }]],
  [
    'YAML 1.1 scalars',
    'a: yes\nb: off\nc: 0777\nd: 0x1F\ne: 1_000\nf: ~\ng: .5\nh: 1e3\ni: "yes"\nj: 2001-12-14\nk: 1:20\nl: 0o17\n',
    [
      {
        a: true,
        b: false,
        c: 511,
        d: 31,
        e: 1000,
        f: null,
        g: 0.5,
        h: 1000,
        i: 'yes',
        j: '2001-12-14',
        k: '1:20',
        l: 15,
      },
    ],
  ],
  ['non-string keys', '1: a\n1.5: b\ntrue: c\ny: d\n', [{ '1': 'a', '1.5': 'b', true: 'd' }]],
  [
    'merge keys: later keys win',
    'base: &b {x: 1, z: 2}\nother:\n  <<: *b\n  z: 3\n',
    [{ base: { x: 1, z: 2 }, other: { x: 1, z: 3 } }],
  ],
  [
    'merge list: earlier maps win',
    'a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: [*a, *b]\n',
    [{ a: { x: 1 }, b: { x: 2, z: 3 }, c: { x: 1, z: 3 } }],
  ],
  ['quoted << is a plain key', '"<<": {a: 1}\n', [{ '<<': { a: 1 } }]],
  ['tags', 'a: !!int "3"\nb: !!str 3\nc: !!binary aGVsbG8=\nd: !custom 3\n', [{ a: 3, b: '3', c: 'hello', d: '3' }]],
  ['block scalars', 'x: |\n  multi\n  line\nz: >\n  folded\n  text\n', [{ x: 'multi\nline\n', z: 'folded text\n' }]],
];

test('parseYaml', () => {
  for (const [name, input, want] of yamlCases) assert.deepEqual(call('parseYaml', input), want, name);
});

test('parseYaml errors', () => {
  fails(() => call('parseYaml', '--- |\n  x\n'), 'parseYaml: invalid Yaml document separator: |', 'RENDER_PARSE_YAML');
  fails(
    () => call('parseYaml', 'a: .inf\n'),
    'parseYaml: error converting YAML to JSON: json: unsupported value: +Inf',
  );
  fails(() => call('parseYaml', 'a: [1\nb: 2'), /^parseYaml: error converting YAML to JSON: yaml: line 2: /);
  fails(
    () => call('parseYaml', 'a: &a [*a]\n'),
    "parseYaml: error converting YAML to JSON: yaml: anchor 'a' value contains itself",
  );
  fails(
    () => call('parseYaml', 'a: !!int x\n'),
    'parseYaml: error converting YAML to JSON: yaml: cannot decode !!str `x` as a !!int',
  );
  fails(
    () => call('parseYaml', '<<: 1\n'),
    'parseYaml: error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the value',
  );
});

test('parseYaml refuses an alias bomb quickly', () => {
  const levels = ['- &a [x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    levels.push(
      `- &${String.fromCharCode(97 + i)} [${Array(9)
        .fill('*' + prev)
        .join(', ')}]`,
    );
  }
  fails(
    () => call('parseYaml', levels.join('\n') + '\n'),
    'parseYaml: error converting YAML to JSON: yaml: document contains excessive aliasing',
  );
});

test('manifestJson: MarshalIndent with HTML escaping, plus a newline', () => {
  assert.equal(
    call('manifestJson', { b: [1, 1e21], a: '<x>' }, 2),
    '{\n  "a": "\\u003cx\\u003e",\n  "b": [\n    1,\n    1e+21\n  ]\n}\n',
  );
  assert.equal(call('manifestJson', { a: 1 }, 0), '{\n"a": 1\n}\n');
  assert.equal(call('manifestJson', {}, 4), '{}\n');
  fails(
    () => call('manifestJson', {}, -1),
    'manifestJson: parameter indent must not be negative',
    'RENDER_BAD_ARGUMENT',
  );
});

test('manifestYaml: ghodss/yaml via yaml.v2', () => {
  assert.equal(
    call('manifestYaml', { n: 1000000, f: 1.5, big: 1e20, z: -0, s: 'on', t: 'a\nb' }),
    'big: 1e+20\nf: 1.5\n"n": 1000000\ns: "on"\nt: |-\n  a\n  b\nz: 0\n',
  );
  assert.equal(call('manifestYaml', null), 'null\n');
  // yaml.v2 key order: non-letters first even after a shared digit
  assert.equal(call('manifestYaml', { a1b: 1, a1_: 2 }), 'a1_: 2\na1b: 1\n');
});

test('regex natives', () => {
  assert.equal(call('escapeStringRegex', 'a.b'), 'a\\.b');
  assert.equal(call('regexMatch', '^v\\d+$', 'v1'), true);
  assert.equal(call('regexSubst', '(\\w+)-(\\w+)', 'foo-bar', '${2}_$1'), 'bar_foo');
  fails(() => call('regexMatch', '(', 'x'), 'regexMatch: error parsing regexp: missing closing ): `(`', 'RENDER_REGEX');
  fails(() => call('regexSubst', 'a', 'b', 1), 'regexSubst: parameter repl must be a string, got float64');
});

test('regex natives match in linear time (catastrophic patterns on 10,000 characters)', () => {
  const subject = `${'a'.repeat(10000)}!`;
  assert.equal(call('regexMatch', '^(a+)+$', subject), false);
  assert.equal(call('regexMatch', '^(a|aa)*$', subject), false);
  assert.equal(call('regexSubst', '(a+)+!', subject, '[$1]'), `[${'a'.repeat(10000)}]`);
  assert.equal(call('regexSubst', '^(a+)+$', subject, 'x'), subject);
  // Go's indices are bytes, ours UTF-16 units: non-ASCII text around matches must survive untouched.
  assert.equal(call('regexSubst', 'x*', 'é😀', '-'), '-é-😀-');
  assert.equal(call('regexSubst', '(?i)Σ', 'σςΣ', 's'), 'sss');
  assert.equal(call('regexMatch', '^\\pL{3}$', 'λ😀a'), false);
  assert.equal(call('regexMatch', '^(?s:.){3}$', 'λ😀\n'), true);
});
