import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.parseJson values', () => {
  assert.deepEqual(call('parseJson', ' {"a": [1, -2.5e1, true, false, null], "b": {}} '), {
    a: [1, -25, true, false, null],
    b: {},
  });
  assert.deepEqual(call('parseJson', '{"a": 1, "a": 2}'), { a: 2 });
  assert.deepEqual(call('parseJson', '"\\u00e9\\ud83d\\ude00\\ud800x\\/"'), 'é\u{1f600}\ufffdx/');
  assert.deepEqual(call('parseJson', '{"__proto__": 1}'), JSON.parse('{"__proto__": 1}'));
  assert.equal(Object.keys(call('parseJson', '{"__proto__": {"x": 1}}') as object).length, 1);
  assert.equal(call('parseJson', '12345678901234567890'), 12345678901234567000);
});

test('std.parseJson errors use Go encoding/json wording', () => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['[1, 2', 'unexpected end of JSON input'],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a": 1,}', "invalid character '}' looking for beginning of object key string"],
    ['{1: 2}', "invalid character '1' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{"a": 1 "b"}', `invalid character '"' after object key:value pair`],
    ['01', "invalid character '1' after top-level value"],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"], // Go's scanner ends input with a space
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.e3', "invalid character 'e' after decimal point in numeric literal"],
    ['1e+', "invalid character ' ' in exponent of numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['"a\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['1e400', 'json: cannot unmarshal number 1e400 into Go value of type float64'],
  ];
  for (const [text, want] of cases)
    assert.equal(errorOf('parseJson', text), 'failed to parse JSON: ' + want, JSON.stringify(text));
  assert.equal(errorOf('parseJson', 1), 'Unexpected type number, expected string');
});

test('std.parseJson nesting: 10000 levels parse, deeper is an error, never a RangeError', () => {
  const ok = '['.repeat(10000) + ']'.repeat(10000);
  let v = call('parseJson', ok);
  let depth = 0;
  while (Array.isArray(v) && v.length > 0) {
    v = v[0]!;
    depth++;
  }
  assert.equal(depth, 9999);
  assert.equal(
    errorOf('parseJson', '['.repeat(100000)),
    "failed to parse JSON: invalid character '[' exceeded max depth",
  );
  assert.equal(
    errorOf('parseJson', '{"a":'.repeat(10001)),
    "failed to parse JSON: invalid character '{' exceeded max depth",
  );
});
