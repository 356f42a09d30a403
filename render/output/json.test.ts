import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonObject } from '../../lang/common/json.js';
import { formatJsonObjects, goMarshalIndent } from './json.js';
import { quoteString as goJsonString } from '../../lang/go/encoding-json.js';
import { RenderError } from '../errors.js';

test('encoding/json string escapes', () => {
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
  for (const [input, want] of cases) assert.equal(goJsonString(input, true), want, JSON.stringify(input));
  assert.equal(goJsonString('<>&', false), '"<>&"');
});

test('MarshalIndent layout, key order and numbers', () => {
  const value = jsonObject([
    ['b', [1, 1.5, 1e21, 1e-7, -0, 1000000]],
    ['a', { z: {}, y: [] }],
    ['é', null],
    ['Z', true],
  ]);
  assert.equal(
    goMarshalIndent(value, '  '),
    '{\n  "Z": true,\n  "a": {\n    "y": [],\n    "z": {}\n  },\n  "b": [\n    1,\n    1.5,\n    1e+21,\n    1e-7,\n    -0,\n    1000000\n  ],\n  "é": null\n}',
  );
  assert.equal(
    goMarshalIndent(value, null),
    '{"Z":true,"a":{"y":[],"z":{}},"b":[1,1.5,1e+21,1e-7,-0,1000000],"é":null}',
  );
});

test('keys sort by code point, astral after BMP', () => {
  const value = jsonObject([
    ['\uffff', 1],
    ['😀', 2],
    ['a', 3],
  ]);
  assert.equal(goMarshalIndent(value, null), '{"a":3,"\uffff":1,"😀":2}');
});

test('show -o json framing: --- between objects, newline after each', () => {
  assert.equal(formatJsonObjects([]), '');
  assert.equal(formatJsonObjects([{ a: 1 }]), '{\n  "a": 1\n}\n');
  assert.equal(formatJsonObjects([{ a: 1 }, { b: 2 }]), '{\n  "a": 1\n}\n---\n{\n  "b": 2\n}\n');
});

test('non-finite numbers are refused as encoding/json does', () => {
  assert.throws(
    () => goMarshalIndent({ a: NaN }, null),
    (e: unknown) => e instanceof RenderError && /unsupported value: NaN/.test(e.message),
  );
});
