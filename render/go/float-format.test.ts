import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatFloatShortest, formatFloatPrecisionG, formatJsonNumber } from './float-format.js';
import { unparseNumber } from '../../lang/jsonnet/std/pure/go-number.js';

test('strconv.FormatFloat(x, g, -1, 64) as go-yaml v2 prints floats', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [1.5, '1.5'],
    [-2.25, '-2.25'],
    [100000, '100000'],
    [123456, '123456'],
    [1000000, '1e+06'],
    [1234567, '1.234567e+06'],
    [8080, '8080'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1e21, '1e+21'],
    [1e100, '1e+100'],
    [0.1, '0.1'],
    [2 ** 53, '9.007199254740992e+15'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [12345.678, '12345.678'],
  ];
  for (const [x, want] of cases) assert.equal(formatFloatShortest(x, 'g'), want, String(x));
});

test('encoding/json float64 rule', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [-0, '-0'],
    [1, '1'],
    [1000000, '1000000'],
    [1e20, '100000000000000000000'],
    [1e21, '1e+21'],
    [0.000001, '0.000001'],
    [0.0000001, '1e-7'],
    [1.5e-10, '1.5e-10'],
    [123456789012, '123456789012'],
    [0.1, '0.1'],
    [1e300, '1e+300'],
    [-3.5, '-3.5'],
  ];
  for (const [x, want] of cases) assert.equal(formatJsonNumber(x), want, String(x));
});

test('%.17g rounds half to even on the exact binary value', () => {
  assert.equal(formatFloatPrecisionG(0.1, 17), '0.10000000000000001');
  assert.equal(formatFloatPrecisionG(1.5, 17), '1.5');
  assert.equal(formatFloatPrecisionG(1e-5, 17), '1.0000000000000001e-05');
  assert.equal(formatFloatPrecisionG(1234567890123456.25, 17), '1234567890123456.2');
  assert.equal(formatFloatPrecisionG(1234567890123456.75, 17), '1234567890123456.8');
  assert.equal(formatFloatPrecisionG(0.3, 17), '0.29999999999999999');
});

test("go-jsonnet unparseNumber (the engine's, which eval -o json prints)", () => {
  const cases: [number, string][] = [
    [1, '1'],
    [-0, '-0'],
    [1e21, '1000000000000000000000'],
    [0.5, '0.5'],
    [3.14, '3.1400000000000001'],
    [-1e-7, '-9.9999999999999995e-08'],
  ];
  for (const [x, want] of cases) assert.equal(unparseNumber(x), want, String(x));
});
