import assert from 'node:assert/strict';
import { test } from 'node:test';
import { frexp, goAcos, goAsin, goAtan, goAtan2, goCos, goSin, goTan, goPow } from './math.js';

// Expected digits are what go-jsonnet prints (its math package), where V8's
// fdlibm answer differs in the last place.
const cases: [string, number, number][] = [
  ['cos(5)', goCos(5), 0.2836621854632263],
  ['tan(5)', goTan(5), -3.3805150062465854],
  ['acos(0.5)', goAcos(0.5), 1.0471975511965976],
  ['atan(5)', goAtan(5), 1.3734007669450157],
  ['pow(1.1, 7447.081)', goPow(1.1, 7447.081), 1.7975425555842324e308],
  ['pow(-1, Infinity)', goPow(-1, Infinity), 1],
  ['pow(1, NaN)', goPow(1, NaN), 1],
  ['sin(-0)', goSin(-0), -0],
  ['tan(0)', goTan(0), 0],
  ['asin(1)', goAsin(1), Math.PI / 2],
  ['atan(-Infinity)', goAtan(-Infinity), -Math.PI / 2],
  ['atan2(1, -1)', goAtan2(1, -1), (3 * Math.PI) / 4],
  ['atan2(-0, -1)', goAtan2(-0, -1), -Math.PI],
];
for (const [name, got, want] of cases) {
  test(`Go math: ${name}`, () => assert.ok(Object.is(got, want), `${got} !== ${want}`));
}

test('Go math stays within a few ulp of V8 over a sweep (same functions, different rounding)', () => {
  const fns: [string, (x: number) => number, (x: number) => number, number][] = [
    ['sin', goSin, Math.sin, 1e6],
    ['cos', goCos, Math.cos, 1e6],
    ['tan', goTan, Math.tan, 1e3],
    ['atan', goAtan, Math.atan, 1e6],
    ['asin', goAsin, Math.asin, 1],
    ['acos', goAcos, Math.acos, 1],
  ];
  for (const [name, ours, v8, range] of fns) {
    for (let i = -1000; i <= 1000; i++) {
      const x = (i / 1000) * range * 0.999;
      const a = ours(x);
      const b = v8(x);
      const tol = 4 * Number.EPSILON * Math.max(1, Math.abs(b));
      assert.ok(Math.abs(a - b) <= tol, `${name}(${x}): ${a} vs ${b}`);
    }
  }
});

test('arguments at or beyond 2^29 and non-finite ones keep IEEE answers', () => {
  assert.equal(goCos(2 ** 40), Math.cos(2 ** 40));
  assert.ok(Number.isNaN(goSin(Infinity)));
  assert.ok(Number.isNaN(goAsin(1.5)));
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

// Values from Go's math.Frexp; subnormals used to hang std.mantissa.
test('math.Frexp, subnormals included (go-jsonnet std.mantissa/std.exponent)', () => {
  const cases: [number, number, number][] = [
    [8, 0.5, 4],
    [-3, -0.75, 2],
    [5e-324, 0.5, -1073],
    [1e-310, 0.5752618031559393, -1029],
    [0, 0, 0],
  ];
  for (const [x, m, e] of cases) assert.deepEqual(frexp(x), [m, e], String(x));
});
