import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('string functions', () => {
  const cases: [string, JsonValue[], JsonValue][] = [
    ['substr', ['h\u{1f600}llo', 1, 2], '\u{1f600}l'],
    ['substr', ['abc', 4, 1], ''],
    ['substr', ['abc', 3, 0], ''],
    ['startsWith', ['\u{1f600}x', '\u{1f600}'], true],
    ['startsWith', ['a', 'ab'], false],
    ['endsWith', ['abc', 'bc'], true],
    ['endsWith', ['abc', ''], true],
    ['split', ['a\u{1f600}b\u{1f600}', '\u{1f600}'], ['a', 'b', '']],
    ['split', ['a::b', '::'], ['a', 'b']],
    ['splitLimit', ['a.b.c', '.', 1], ['a', 'b.c']],
    ['splitLimitR', ['a.b.c', '.', 1], ['a.b', 'c']],
    ['splitLimitR', ['aaa', 'aa', -1], ['a', '']],
    ['strReplace', ['a.b.c', '.', '::'], 'a::b::c'],
    ['asciiUpper', ['aé\u{1f600}z'], 'Aé\u{1f600}Z'],
    ['asciiLower', ['AÉZ'], 'aÉz'],
    ['asciiUpper', [['a', 'b']], 'AB'],
    ['trim', ['\u3000\t x y \u00a0\u0085\n'], 'x y'],
    ['trim', ['\ufeffx'], '\ufeffx'],
    ['stripChars', ['xxaxx', 'x'], 'a'],
    ['lstripChars', ['\u{1f600}\u{1f600}a', '\u{1f600}'], 'a'],
    ['rstripChars', ['abab', ['a', 'b']], ''],
    ['findSubstr', ['aa', 'aaa'], [0, 1]],
    ['findSubstr', ['b', '\u{1f600}b'], [1]],
    ['parseInt', ['+42'], 42],
    ['parseInt', ['-0012'], -12],
    ['parseOctal', ['17'], 15],
    ['parseHex', ['fF'], 255],
    ['parseHex', [':'], 10], // std.jsonnet's digit arithmetic accepts ':' as 10
    ['char', [65.9], 'A'],
    ['char', [0xd800], '\ufffd'],
    ['codepoint', ['\u{1f600}'], 0x1f600],
    ['stringChars', ['a\u{1f600}'], ['a', '\u{1f600}']],
    ['isEmpty', [''], true],
    ['equalsIgnoreCase', ['HeLLo', 'hello'], true],
    ['equalsIgnoreCase', ['\u212a', 'k'], true], // Kelvin sign folds to k
    ['equalsIgnoreCase', ['straße', 'STRASSE'], false],
    ['lines', [['a', null, 'b']], 'a\nb\n'],
    ['deepJoin', [['a', ['b', []], 'c']], 'abc'],
    ['resolvePath', ['x/y/z.jsonnet', 'w'], 'x/y/w'],
  ];
  for (const [name, args, want] of cases)
    assert.deepEqual(call(name, ...args), want, `${name}(${JSON.stringify(args)})`);
});

test('string function errors', () => {
  const cases: [string, JsonValue[], string][] = [
    ['substr', [1, 0, 1], 'substr first parameter should be a string, got number'],
    ['substr', ['a', '0', 1], 'substr second parameter should be a number, got string'],
    ['substr', ['a', 1.2, 1], 'substr second parameter should be an integer, got 1.200000'],
    ['substr', ['a', -1, 1], 'substr second parameter should be greater than zero, got -1.000000'],
    ['substr', ['a', 0, 1.5], 'substr third parameter should be an integer, got 1.500000'],
    ['substr', ['a', 0, -1], 'substr third parameter should be greater than zero, got -1'],
    ['startsWith', [1, 'a'], 'Unexpected type number'],
    ['startsWith', [['a', 'b'], 'a'], 'substr first parameter should be a string, got array'],
    ['split', [1, ','], 'std.split first parameter must be a String, got number'],
    ['split', ['a', 1], 'std.split second parameter must be a String, got number'],
    ['split', ['a', ''], 'std.split second parameter must have length 1 or greater, got 0'],
    ['splitLimit', ['a', ',', 1.5], 'Expected an integer, but got 1.5'],
    ['splitLimit', ['a', ',', -2], 'std.splitLimit third parameter should be -1 or non-negative, got -2'],
    ['splitLimit', ['a', '', 1], 'std.splitLimit second parameter should have length 1 or greater, got 0'],
    ['splitLimitR', ['a', '', 1], 'std.splitLimitR second parameter should have length 1 or greater, got 0'],
    ['strReplace', ['a', '', 'b'], "'from' string must not be zero length."],
    ['strReplace', ['a', 1, 'b'], 'Unexpected type number, expected string'],
    ['asciiUpper', [5], 'Unexpected type number'],
    ['trim', [10], 'Unexpected type number, expected string'],
    ['stripChars', [{ a: 1 }, 'x'], 'Unexpected type object, expected string'],
    ['lstripChars', ['a', 1], 'std.member first argument must be an array or a string'],
    ['findSubstr', [1, 'a'], 'findSubstr first parameter should be a string, got number'],
    ['parseInt', ['1.5'], '1.5 is not a base 10 integer'],
    ['parseInt', ['99999999999999999999'], '99999999999999999999 is not a base 10 integer'],
    ['parseInt', [1], 'Unexpected type number, expected string'],
    ['parseOctal', ['9'], '9 is not a base 8 integer'],
    ['parseOctal', [''], 'Not an octal number: ""'],
    ['parseHex', ['g'], 'g is not a base 16 integer'],
    ['parseHex', [''], 'Not hexadecimal: ""'],
    ['parseHex', [null], 'Expected string, got null'],
    ['char', [1114112], 'Invalid unicode codepoint, got 1.114112e+06'],
    ['char', [-0.5], 'Codepoints must be >= 0, got -0.5'],
    ['char', ['a'], 'Unexpected type string, expected number'],
    ['codepoint', ['ab'], 'codepoint takes a string of length 1, got length 2'],
    ['isEmpty', [10], 'Unexpected type number, expected string'],
    ['equalsIgnoreCase', ['a', 1], 'Unexpected type number, expected string'],
    ['deepJoin', [[true]], 'Expected string or array, got boolean'],
    ['lines', ['a'], 'Unexpected type string, expected array'],
  ];
  for (const [name, args, want] of cases)
    assert.equal(errorOf(name, ...args), want, `${name}(${JSON.stringify(args)})`);
});
