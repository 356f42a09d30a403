import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { decodeUtf8Go } from './encoding.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('base64 and UTF-8 functions', () => {
  const cases: [string, JsonValue[], JsonValue][] = [
    ['base64', ['hello'], 'aGVsbG8='],
    ['base64', ['é'], 'w6k='], // go-jsonnet encodes the UTF-8 bytes (C++ gives "6Q==")
    ['base64', [[255, 0, 254]], '/wD+'],
    ['base64', [[]], ''],
    ['base64Decode', ['aGk='], 'hi'],
    ['base64Decode', ['w6k='], 'é'],
    ['base64Decode', ['gA=='], '\ufffd'],
    ['base64DecodeBytes', ['/wD+'], [255, 0, 254]],
    ['base64DecodeBytes', ['YW\r\nJj\r\n'], [97, 98, 99]], // Go skips CR/LF
    ['base64DecodeBytes', ['YR=='], [97]], // non-strict: stray low bits are ignored
    ['encodeUTF8', ['a€\u{1f600}'], [97, 226, 130, 172, 240, 159, 152, 128]],
    ['decodeUTF8', [[97, 226, 130, 172]], 'a€'],
    ['escapeStringBash', ["it's"], `'it'"'"'s'`],
    ['escapeStringDollars', ['$a$'], '$$a$$'],
    ['escapeStringXML', [`<"&'>`], '&lt;&quot;&amp;&apos;&gt;'],
    ['escapeStringPython', ['a\nb'], '"a\\nb"'],
    ['escapeStringJson', ['\u007f\u0085é'], '"\\u007f\\u0085é"'],
  ];
  for (const [name, args, want] of cases)
    assert.deepEqual(call(name, ...args), want, `${name}(${JSON.stringify(args)})`);
});

test('Go UTF-8 decoding replaces each byte of a bad sequence', () => {
  assert.equal(decodeUtf8Go([0xe2, 0x82, 0x41]), '\ufffd\ufffdA');
  assert.equal(decodeUtf8Go([0xed, 0xa0, 0x80]), '\ufffd\ufffd\ufffd'); // encoded surrogate
  assert.equal(decodeUtf8Go([0xf0, 0x9f, 0x98, 0x80]), '\u{1f600}');
  assert.equal(decodeUtf8Go([0xc0, 0xaf]), '\ufffd\ufffd');
});

test('encoding errors', () => {
  const cases: [string, JsonValue[], string][] = [
    ['base64', [1], 'base64 can only base64 encode strings / arrays of single bytes, got number'],
    ['base64', [[1, 'a']], 'base64 encountered a non-integer value in the array, got string'],
    ['base64', [[1.5]], 'base64 encountered a non-integer value in the array, got number'],
    ['base64', [[256]], 'base64 encountered invalid codepoint value in the array (must be 0 <= X <= 255), got 256'],
    ['base64', ['Ā'], 'base64 encountered invalid codepoint value in the array (must be 0 <= X <= 255), got 256'],
    ['base64Decode', [1], 'base64DecodeBytes requires a string, got number'],
    ['base64DecodeBytes', ['abc'], 'input string appears not to be a base64 encoded string. Wrong length found (3)'],
    ['base64DecodeBytes', ['ĀQ='], 'failed to decode: illegal base64 data at input byte 0'],
    ['base64DecodeBytes', ['YQ=a'], 'failed to decode: illegal base64 data at input byte 2'],
    ['base64DecodeBytes', ['Y==='], 'failed to decode: illegal base64 data at input byte 1'],
    ['base64DecodeBytes', ['YQ==YQ=='], 'failed to decode: illegal base64 data at input byte 4'],
    ['base64DecodeBytes', ['a$cd'], 'failed to decode: illegal base64 data at input byte 1'],
    ['decodeUTF8', [[256]], 'Bytes must be integers in range [0, 255], got 256'],
    ['decodeUTF8', [[1.5]], 'Expected an integer, but got 1.5'],
    ['decodeUTF8', ['x'], 'Unexpected type string, expected array'],
    ['encodeUTF8', [1], 'Unexpected type number, expected string'],
  ];
  for (const [name, args, want] of cases)
    assert.equal(errorOf(name, ...args), want, `${name}(${JSON.stringify(args)})`);
});
