import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonObject, type JsonValue } from '../lang/common/json.js';
import { goJson } from './go-json.js';

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
    ['\ud800x', false, '"\ufffdx"'],
    [jsonObject([['__proto__', 1]]), false, '{"__proto__":1}'],
  ];
  for (const [value, escapeHtml, want] of table) assert.equal(goJson(value, { escapeHtml }), want);
});

test('MarshalIndent layout', () => {
  assert.equal(
    goJson({ a: { b: [1, {}], c: [] } }, { indent: '  ', escapeHtml: true }),
    '{\n  "a": {\n    "b": [\n      1,\n      {}\n    ],\n    "c": []\n  }\n}',
  );
});
