import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonObject } from '../../../common/json.js';
import { serializeJson, toStringValue, unparseString } from './manifest-json.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.manifestJsonEx uses go-jsonnet native formatting', () => {
  assert.equal(
    call('manifestJsonEx', { b: [1, 0.1, 1e100], a: {} }, '  '),
    '{\n  "a": {\n\n  },\n  "b": [\n    1,\n    0.1,\n    1' + '0'.repeat(100) + '\n  ]\n}',
  );
  assert.equal(call('manifestJsonEx', [], '  '), '[\n\n]');
  assert.equal(call('manifestJsonEx', 'x', '  '), '"x"');
  assert.equal(call('manifestJsonEx', { a: [1, 2] }, '', '', ':'), '{"a":[1,2]}');
  // Go's encoding/json: U+2028 escaped, DEL and C1 controls kept, \b short form
  assert.equal(call('manifestJsonEx', '\u2028\u007f\u0085\b\u0001<&>', ''), '"\\u2028\u007f\u0085\\b\\u0001<&>"');
  assert.equal(call('manifestJson', { x: 1e-7 }), '{\n    "x": 0.0000001\n}');
  assert.equal(call('manifestJsonMinified', { b: [true, null], a: 'é' }), '{"a":"é","b":[true,null]}');
  assert.equal(errorOf('manifestJsonEx', 1, 2), 'Unexpected type number, expected string');
  assert.equal(errorOf('manifestJsonEx', 1, ' ', null), 'Unexpected type null, expected string');
});

test('keys sort by code point, and __proto__ is an ordinary key', () => {
  const obj = jsonObject([
    ['\u{1f600}', 1],
    ['\uffff', 2],
    ['__proto__', 3],
    ['B', 4],
  ]);
  assert.equal(call('manifestJsonMinified', obj), '{"B":4,"__proto__":3,"\uffff":2,"\u{1f600}":1}');
});

test('std.toString form (serializeJson one-line) and escapeStringJson', () => {
  assert.equal(toStringValue([1, 'a', { b: [] }, {}]), '[1, "a", {"b": [ ]}, { }]');
  assert.equal(toStringValue('raw'), 'raw');
  assert.equal(toStringValue(1.42), '1.4199999999999999');
  assert.equal(serializeJson({ a: [1] }, true), '{\n   "a": [\n      1\n   ]\n}');
  assert.equal(
    unparseString('a"\\\n\u0000\u001f\u007f\u009f\u00a0'),
    '"a\\"\\\\\\n\\u0000\\u001f\\u007f\\u009f\u00a0"',
  );
  assert.equal(call('escapeStringJson', null), '"null"');
  assert.equal(call('escapeStringJson', { a: 1 }), '"{\\"a\\": 1}"');
});

test('std.manifestJsonEx nests empties and containers with any indent, newline and separator', () => {
  // Expected text from go-jsonnet v0.20: std.manifestJsonEx(v, '\t', '\r\n', ' = ').
  const v = { a: [[], { b: [1, {}] }], c: 'x' };
  assert.equal(
    call('manifestJsonEx', v, '\t', '\r\n', ' = '),
    '{\r\n\t"a" = [\r\n\t\t[\r\n\r\n\t\t],\r\n\t\t{\r\n\t\t\t"b" = [\r\n\t\t\t\t1,\r\n\t\t\t\t{\r\n\r\n\t\t\t\t}\r\n\t\t\t]\r\n\t\t}\r\n\t],\r\n\t"c" = "x"\r\n}',
  );
});
