import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonObject, type JsonValue } from '../common/json.js';
import { GoJsonSyntaxError, marshal, quoteString, unmarshal } from './encoding-json.js';

test('compact output as Go encoding/json writes it', () => {
  const table: Array<[JsonValue, boolean, string]> = [
    [{ b: 1, a: [true, null, 'x'] }, true, '{"a":[true,null,"x"],"b":1}'],
    [{ html: '<a&b>' }, true, '{"html":"\\u003ca\\u0026b\\u003e"}'],
    [{ html: '<a&b>' }, false, '{"html":"<a&b>"}'],
    ['line\u2028sep\u0001\t\n"\\', false, '"line\\u2028sep\\u0001\\t\\n\\"\\\\"'],
    [[1.5, 1e21, 1e-7, 123456789, -0.25], false, '[1.5,1e+21,1e-7,123456789,-0.25]'],
    [{ é: 1, z: 2, Z: 3, '𝄞': 4, '\uffff': 5 }, false, '{"Z":3,"z":2,"é":1,"\uffff":5,"𝄞":4}'],
    [{}, false, '{}'],
    [[], false, '[]'],
    ['\ud800x', false, '"\\ufffdx"'],
    [jsonObject([['__proto__', 1]]), false, '{"__proto__":1}'],
  ];
  for (const [value, escapeHtml, want] of table) assert.equal(marshal(value, { escapeHtml }), want);
});

test('MarshalIndent layout', () => {
  assert.equal(
    marshal({ a: { b: [1, {}], c: [] } }, { indent: '  ', escapeHtml: true }),
    '{\n  "a": {\n    "b": [\n      1,\n      {}\n    ],\n    "c": []\n  }\n}',
  );
});

test('string escapes: Go 1.22+ short forms for \\b and \\f, invalid UTF-8 as \\ufffd', () => {
  const cases: [string, string][] = [
    ['plain', '"plain"'],
    ['<a href="x">&', '"\\u003ca href=\\"x\\"\\u003e\\u0026"'],
    ['\u2028\u2029', '"\\u2028\\u2029"'],
    ['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
    ['\x00\x1f\x7f', '"\\u0000\\u001f\x7f"'],
    ['a\ud800b', '"a\\ufffdb"'],
    ['😀', '"😀"'],
    ['back\\slash', '"back\\\\slash"'],
  ];
  for (const [input, want] of cases) assert.equal(quoteString(input, true), want, JSON.stringify(input));
  assert.equal(quoteString('<>&', false), '"<>&"');
});

test('Marshal refuses NaN and infinities as Go does', () => {
  assert.throws(() => marshal([1, NaN], { escapeHtml: true }), /^Error: json: unsupported value: NaN$/);
  assert.throws(
    () =>
      marshal(
        { a: [Infinity] },
        {
          escapeHtml: true,
          unsupported: (n, path) => {
            throw new Error(`${n} at ${path}`);
          },
        },
      ),
    /Infinity at \$\.a\[0\]/,
  );
});

test('Unmarshal: values and Go wording of errors', () => {
  assert.deepEqual(unmarshal(' {"a": [1, -2.5e1, true, false, null], "b": {}, "a": 2} '), { a: 2, b: {} });
  assert.equal(unmarshal('"\\u00e9\\ud83d\\ude00\\ud800x"'), 'é\u{1f600}\ufffdx');
  const errors: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['[1, 2', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['[1 2]', "invalid character '2' after array element"],
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    ['f', "invalid character ' ' in literal false (expecting 'a')"],
    ['-', "invalid character ' ' in numeric literal"],
    ['1.', "invalid character ' ' after decimal point in numeric literal"],
    ['1e+', "invalid character ' ' in exponent of numeric literal"],
    ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape"],
    ['"\\', "invalid character ' ' in string escape code"],
    ['"abc', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['1e400', 'json: cannot unmarshal number 1e400 into Go value of type float64'],
    ['[1e400, x]', "invalid character 'x' looking for beginning of value"],
    ['"\t"', "invalid character '\\t' in string literal"],
    ['['.repeat(10001), "invalid character '[' exceeded max depth"],
    ['{} {}', "invalid character '{' after top-level value"],
  ];
  for (const [text, want] of errors) {
    assert.throws(
      () => unmarshal(text),
      (e: unknown) => e instanceof GoJsonSyntaxError && e.message === want,
      text,
    );
  }
});
