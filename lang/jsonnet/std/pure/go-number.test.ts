import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goFixed, goFloat32G, goFloatV, goGeneral, goPow, goShortestFixed, unparseNumber } from './go-number.js';

test('unparseNumber prints integers in full and others as %.17g', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [-0, '-0'],
    [42, '42'],
    [-7, '-7'],
    [1e21, '1000000000000000000000'],
    [1e100, '10000000000000000159028911097599180468360808563945281389781327557747838772170381060813469985856815104'],
    [0.1, '0.10000000000000001'],
    [1.42, '1.4199999999999999'],
    [1.5, '1.5'],
    [1e-7, '9.9999999999999995e-08'],
    [0.0001, '0.0001'],
    [2 ** 50 + 0.25, '1125899906842624.2'], // exact tie, rounded half to even
    [5e-324, '4.9406564584124654e-324'],
  ];
  for (const [v, want] of cases) assert.equal(unparseNumber(v), want, String(v));
});

test('Go verbs: %f, %g, %v and FormatFloat(f, -1)', () => {
  assert.equal(goFixed(1.2, 6), '1.200000');
  assert.equal(goFixed(1 / 128, 6), '0.007812'); // tie to even, where toFixed rounds up
  assert.equal(goFixed(-2.5, 0), '-2');
  assert.equal(goGeneral(100.5, 17), '100.5');
  assert.equal(goFloatV(1114112), '1.114112e+06');
  assert.equal(goFloatV(123456), '123456');
  assert.equal(goFloatV(1e-5), '1e-05');
  assert.equal(goFloatV(-1.5), '-1.5');
  assert.equal(goShortestFixed(1e100), '1' + '0'.repeat(100));
  assert.equal(goShortestFixed(1e-7), '0.0000001');
  assert.equal(goShortestFixed(0.1), '0.1');
  assert.equal(goShortestFixed(-1.42), '-1.42');
  assert.equal(goFloat32G(0.1), '0.1');
  assert.equal(goFloat32G(3.14159265358979), '3.1415927');
  assert.equal(goFloat32G(1e6), '1e+06');
});

test('goPow follows Go math.Pow, not V8 Math.pow', () => {
  assert.equal(goPow(10, -5), 0.00001); // V8: 0.000009999999999999999
  assert.equal(goPow(10, -20), 1e-20);
  assert.equal(goPow(10, 22), 1e22);
  assert.equal(goPow(2, -1074), 5e-324);
  assert.equal(goPow(10, 309), Infinity);
  assert.equal(goPow(-2, 3), -8);
  assert.ok(Number.isNaN(goPow(-2, 0.5)));
  assert.equal(goPow(4, 0.5), 2);
});
