import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unparseNumber } from './go-number.js';

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
    [3.14, '3.1400000000000001'],
    [-1e-7, '-9.9999999999999995e-08'],
  ];
  for (const [v, want] of cases) assert.equal(unparseNumber(v), want, String(v));
});
