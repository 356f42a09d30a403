/** Go formatting helpers of the JSON Schema messages, and exact decimal arithmetic. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goFloat, goPathEscape, goSharpV, pointerToken, quoteSingle } from './go-text.js';
import { compareDecimal, isMultipleOf } from './decimal.js';

test('quoteSingle: Go %q with single quotes', () => {
  const rows: [string, string][] = [
    ['', "''"],
    ['/age', "'/age'"],
    [`it's "q"`, `'it\\'s "q"'`],
    ['a\nb\t', "'a\\nb\\t'"],
    ['é', "'é'"],
  ];
  for (const [input, want] of rows) assert.equal(quoteSingle(input), want);
});

test('pointerToken and url.PathEscape', () => {
  const rows: [string, string][] = [
    ['a b/c~', 'a%20b~1c~0'],
    ["it's", 'it%27s'],
    ['é', '%C3%A9'],
    ['$&+:=@', '$&+:=@'],
    [',;?', '%2C%3B%3F'],
  ];
  for (const [input, want] of rows) assert.equal(pointerToken(input), want);
  assert.equal(goPathEscape('^x'), '%5Ex');
});

test('goFloat is fmt %v of a float64', () => {
  const rows: [number, string][] = [
    [-1, '-1'],
    [0.1, '0.1'],
    [123456789, '1.23456789e+08'],
    [100000, '100000'],
    [1e-7, '1e-07'],
    [1e21, '1e+21'],
  ];
  for (const [input, want] of rows) assert.equal(goFloat(input), want);
});

test('goSharpV prints schema values as json.Number / Go values', () => {
  assert.equal(goSharpV(1), '"1"');
  assert.equal(goSharpV(1e21), '"1e+21"');
  assert.equal(goSharpV(1e-7), '"1e-7"');
  assert.equal(goSharpV(null), '<nil>');
  assert.equal(goSharpV(true), 'true');
  assert.equal(goSharpV('a"b'), '"a\\"b"');
});

test('decimal comparison and multipleOf are exact', () => {
  assert.equal(compareDecimal(0.1 + 0.2, 0.3), 1);
  assert.equal(compareDecimal(-1, 0), -1);
  assert.equal(compareDecimal(1e21, 1e21), 0);
  assert.equal(isMultipleOf(0.3, 0.1), true);
  assert.equal(isMultipleOf(0.1 + 0.2, 0.1), false);
  assert.equal(isMultipleOf(1e-7, 1e-8), true);
  assert.equal(isMultipleOf(7, 2), false);
});
