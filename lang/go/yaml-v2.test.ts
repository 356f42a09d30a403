/**
 * go-yaml v2 (gopkg.in/yaml.v2 v2.4.0) decoding into interface{}, and
 * sigs.k8s.io/yaml's conversion to JSON: each row is what the Go library
 * gives for the input (its behaviour as decode_test.go and limit_test.go
 * describe it, cases written by us). Values are shown as %#v prints them.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import {
  GoYamlError,
  goSharpV,
  splitYamlDocuments,
  unmarshalYaml,
  unmarshalYamlStream,
  yamlToJson,
  YAML_MAX_DEPTH,
} from './yaml-v2.js';

const M = (body: string): string => `map[interface {}]interface {}{${body}}`;

test('scalars resolve by YAML 1.1 as go-yaml v2 has it', () => {
  const rows: [string, string][] = [
    ['v: hi', M('"v":"hi"')],
    ['v: true', M('"v":true')],
    ['v: y', M('"v":true')],
    ['v: NO', M('"v":false')],
    ['v: On', M('"v":true')],
    ['v: off', M('"v":false')],
    ['v: 10', M('"v":10')],
    ['v: 0b10', M('"v":2')],
    ['v: 0xA', M('"v":10')],
    ['v: 0o17', M('"v":15')],
    ['v: 02472256', M('"v":685230')],
    ['v: +685_230', M('"v":685230')],
    ['v: 0x_0A_74_AE', M('"v":685230')],
    ['v: -0b101010', M('"v":-42')],
    ['v: 9223372036854775807', M('"v":9223372036854775807')],
    ['v: 18446744073709551615', M('"v":0xffffffffffffffff')],
    ['v: 18446744073709551616', M('"v":1.8446744073709552e+19')],
    ['v: 0.1', M('"v":0.1')],
    ['v: .1', M('"v":0.1')],
    ['v: -.1', M('"v":-0.1')],
    ['v: 6.8523e+5', M('"v":685230')],
    ['v: 685.230_15e+03', M('"v":685230.15')],
    ['v: 1e400', M('"v":"1e400"')],
    ['v: .Inf', M('"v":+Inf')],
    ['v: -.inf', M('"v":-Inf')],
    ['v: .NaN', M('"v":NaN')],
    ['v: 1.0', M('"v":1')],
    ['v: 190:20:30', M('"v":"190:20:30"')],
    ['v: 2015-01-01', M('"v":"2015-01-01"')],
    ['v: 2015-02-24T18:19:39Z', M('"v":"2015-02-24T18:19:39Z"')],
    ['v: 2015-02-30', M('"v":"2015-02-30"')],
    ['v:', M('"v":interface {}(nil)')],
    ['v: ~', M('"v":interface {}(nil)')],
    ['v: Null', M('"v":interface {}(nil)')],
    ['v: "yes"', M('"v":"yes"')],
    ["v: '10'", M('"v":"10"')],
    ['v: |\n  10\n', M('"v":"10\\n"')],
    ['v: -b_c', M('"v":"-b_c"')],
    ['v: 50cent_of_dollar', M('"v":"50cent_of_dollar"')],
    ['123', '123'],
    ['', '<nil>'],
    ['# only a comment', '<nil>'],
  ];
  for (const [input, want] of rows) assert.equal(goSharpV(unmarshalYaml(input)), want, input);
});

test('explicit tags: standard tags must agree with the implicit type, others leave the text', () => {
  const rows: [string, string][] = [
    ['v: !!str 10', M('"v":"10"')],
    ["v: !!int '10'", M('"v":10')],
    ['v: !!float 1', M('"v":1')],
    ['v: !!null ~', M('"v":interface {}(nil)')],
    ['v: !!timestamp 2015-01-01', M('"v":"2015-01-01"')],
    ['v: !!binary aGVsbG8=', M('"v":"hello"')],
    ["v: !!foo 'BAR!'", M('"v":"BAR!"')],
    ['v: !local yes', M('"v":"yes"')],
  ];
  for (const [input, want] of rows) assert.equal(goSharpV(unmarshalYaml(input)), want, input);
});

test('collections, merges and aliases', () => {
  const rows: [string, string][] = [
    ['seq: [A, 1, C]', M('"seq":[]interface {}{"A", 1, "C"}')],
    ['a: {b: c}', M('"a":' + M('"b":"c"'))],
    ['[a: b]', `[]interface {}{${M('"a":"b"')}}`],
    ['1: a\n"1": b\ntrue: c', M('true:"c", 1:"a", "1":"b"')],
    ['a: 1\na: 2', M('"a":2')],
    ['a: &x [1, 2]\nb: *x', M('"a":[]interface {}{1, 2}, "b":[]interface {}{1, 2}')],
    ['a: &x 1\nb: *x\na2: &x 2\nc: *x', M('"a":1, "a2":2, "b":1, "c":2')],
    // a merge overrides the keys before it, the keys after it override the merge
    [
      'base: &b {x: 1, w: 2}\nm:\n  x: 0\n  <<: *b\n  z: 3',
      M('"base":' + M('"w":2, "x":1') + ', "m":' + M('"w":2, "x":1, "z":3')),
    ],
    // `y` is YAML 1.1's true, as a key too
    ['y: 1', M('true:1')],
    ['<<: [{a: 1}, {a: 2, b: 3}]\nb: 4', M('"a":1, "b":4')],
    ['!!merge <<: {a: 1}', M('"a":1')],
    ["'<<': {a: 1}", M('"<<":' + M('"a":1'))],
  ];
  for (const [input, want] of rows) assert.equal(goSharpV(unmarshalYaml(input)), want, input);
});

test("errors carry go-yaml's wording", () => {
  const rows: [string, string | RegExp][] = [
    ["v: !!float 'error'", 'yaml: cannot decode !!str `error` as a !!float'],
    ['v: !!int 2015-01-01', 'yaml: cannot decode !!str `2015-01-01` as a !!int'],
    ['v: [A,', /^yaml: line 1: /],
    ['v:\n- [A,', /^yaml: line 2: /],
    ['a: *b\n', "yaml: unknown anchor 'b' referenced"],
    ['b: *a\na: &a {c: 1}', "yaml: unknown anchor 'a' referenced"],
    ['a: &a\n  b: *a\n', "yaml: anchor 'a' value contains itself"],
    ['a: &x null\n<<:\n- *x\nb: &x {}\n', 'yaml: map merge requires map or sequence of maps as the value'],
    ['<<: 1', 'yaml: map merge requires map or sequence of maps as the value'],
    ['a: !!binary ==', 'yaml: !!binary value contains invalid base64 data'],
    ['{[.]}', 'yaml: invalid map key: []interface {}{"."}'],
    ['{{.}}', 'yaml: invalid map key: map[interface {}]interface {}{".":interface {}(nil)}'],
  ];
  for (const [input, want] of rows)
    assert.throws(
      () => unmarshalYaml(input),
      (e: unknown) =>
        e instanceof GoYamlError && (typeof want === 'string' ? e.message === want : want.test(e.message)),
      input,
    );
});

test('strict mode: a repeated key is UnmarshalStrict\'s "already set in map", merges included', () => {
  const fails = (input: string, message: string): void =>
    assert.throws(
      () => unmarshalYaml(input, { duplicateKeys: 'strict' }),
      (e: unknown) => e instanceof GoYamlError && e.kind === 'duplicate-key' && e.message === message,
    );
  fails('a: 1\nb: 2\na: 3', 'yaml: unmarshal errors:\n  line 3: key "a" already set in map');
  fails(
    '1: a\nx: [1]\n1: b\n1: c',
    'yaml: unmarshal errors:\n  line 3: key 1 already set in map\n  line 4: key 1 already set in map',
  );
  fails('a: 1\n<<: {a: 2}', 'yaml: unmarshal errors:\n  line 2: key "a" already set in map');
  assert.equal(goSharpV(unmarshalYaml('1: a\n"1": b', { duplicateKeys: 'strict' })), M('1:"a", "1":"b"'));
});

test('KuboCD collisions: an explicit repeat or keys equal once stringified fail, merges still override', () => {
  const kinds = (input: string): string | undefined => {
    try {
      yamlToJson(input, { duplicateKeys: 'collision', keyCollisions: 'error' });
      return undefined;
    } catch (e) {
      return (e as GoYamlError).kind;
    }
  };
  assert.equal(kinds('a: 1\na: 2'), 'key-collision');
  assert.equal(kinds('1: a\n"1": b'), 'key-collision');
  assert.equal(kinds('true: a\n"true": b'), 'key-collision');
  assert.equal(kinds('a: 1\n<<: {a: 2, b: 3}'), undefined);
  assert.equal(kinds('~: 1'), 'unconvertible-key');
});

test("sigs.k8s.io/yaml's JSON: key strings, numbers, and its errors", () => {
  assert.deepEqual(yamlToJson('1: a\n1.5: b\ntrue: c\n0.1: d\n1e20: e\n.inf: f\nn: g'), {
    1: 'a',
    1.5: 'b',
    true: 'c',
    0.1: 'd',
    '1e+20': 'e',
    '.inf': 'f',
    false: 'g',
  });
  assert.deepEqual(yamlToJson('a: [1, 2.5, 9007199254740993]'), { a: [1, 2.5, 9007199254740992] });
  const fails = (input: string, message: string): void =>
    assert.throws(
      () => yamlToJson(input),
      (e: unknown) => e instanceof GoYamlError && e.message === message,
    );
  fails('a: .inf', 'json: unsupported value: +Inf');
  fails('a: .nan', 'json: unsupported value: NaN');
  fails('~: x', 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"');
  fails(
    '18446744073709551615: [1]',
    'Unsupported map key of type: uint64, key: 0xffffffffffffffff, value: []interface {}{1}',
  );
});

test("go-yaml's alias budget: a billion laughs fails fast, ordinary reuse passes", () => {
  const level = (i: number): string => String.fromCharCode(97 + i);
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++)
    lines.push(
      `${level(i)}: &${level(i)} [${Array(9)
        .fill(`*${level(i - 1)}`)
        .join(',')}]`,
    );
  assert.throws(
    () => unmarshalYaml(lines.join('\n')),
    (e: unknown) => e instanceof GoYamlError && e.message === 'yaml: document contains excessive aliasing',
  );
  // limit_test.go's shape: 100 aliases of a large list are too many once they dominate the document
  const big = `{a: &a [{a}${',{a}'.repeat(20000)}], b: &b [*a${',*a'.repeat(99)}]}`;
  assert.throws(() => unmarshalYaml(big), /excessive aliasing/);
  // a document that mostly reuses a few small anchors is fine
  const reuse = `base: &b {x: 1}\nitems:\n${Array.from({ length: 2000 }, () => '- *b').join('\n')}\n`;
  assert.equal((unmarshalYaml(reuse) as { values: unknown[][] }).values[1]!.length, 2000);
});

test('one depth limit, for nesting in the text and for aliases inside aliases', () => {
  const message = `yaml: exceeded max depth of ${YAML_MAX_DEPTH}`;
  const deep = (input: string): void =>
    assert.throws(
      () => unmarshalYaml(input),
      (e: unknown) => e instanceof GoYamlError && e.message === message,
    );
  deep('['.repeat(100000));
  deep('x: ' + '{'.repeat(100000));
  deep('- '.repeat(100000));
  deep(Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n'));
  const chain = ['a0: &a0 [1]'];
  for (let i = 1; i <= YAML_MAX_DEPTH + 10; i++) chain.push(`a${i}: &a${i} [*a${i - 1}]`);
  deep(chain.join('\n'));
  assert.doesNotThrow(() => unmarshalYaml('['.repeat(200) + ']'.repeat(200)));
});

test('streams: Unmarshal reads the first document, the Decoder all of them', () => {
  assert.equal(goSharpV(unmarshalYaml('a: 1\n---\nb: 2\n')), M('"a":1'));
  assert.deepEqual(
    unmarshalYamlStream('a: 1\n---\n---\nb: 2\n').map((d) => goSharpV(d)),
    [M('"a":1'), '<nil>', M('"b":2')],
  );
});

test('document separators: apimachinery and go-jsonnet', () => {
  assert.deepEqual(splitYamlDocuments('a: 1\n--- # next\nb: 2\n', 'apimachinery').docs, ['a: 1\n', 'b: 2\n']);
  assert.throws(() => splitYamlDocuments('a: 1\n--- b\n', 'apimachinery'), /invalid Yaml document separator: b/);
  assert.deepEqual(splitYamlDocuments('a: 1\n--- b\n', 'go-jsonnet'), {
    docs: ['a: 1\n--- b\n'],
    firstLines: [0],
    sawSeparator: false,
  });
  assert.deepEqual(splitYamlDocuments('---\na: 1\n---  \nb: 2\n', 'go-jsonnet'), {
    docs: ['---\na: 1\n', 'b: 2\n'],
    firstLines: [0, 3],
    sawSeparator: true,
  });
});
