// Go fmt verb tables (outputs as Go's fmt.Sprintf prints them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoFloat } from '../value.js';
import { sprint, sprintf, sprintln } from './print.js';
import { formatFloat } from '../../go/strconv.js';

const f = (n: number) => new GoFloat(n);

const cases: [string, unknown[], string][] = [
  ['%d', [42], '42'],
  ['%5d|%-5d|%05d', [42, 42, -42], '   42|42   |-0042'],
  ['%+d % d', [5, 5], '+5  5'],
  ['%x %X %o %O %b', [255, 255, 8, 8, 5], 'ff FF 10 0o10 101'],
  ['%#x %#o %#b', [255, 8, 5], '0xff 010 0b101'],
  ['%.3d', [7], '007'],
  ['%c %q %U %#U', [65, 65, 0x1f600, 65], "A 'A' U+1F600 U+0041 'A'"],
  ['%s', ['hi'], 'hi'],
  ['%10s|%-10s|%.2s', ['hi', 'hi', 'hello'], '        hi|hi        |he'],
  ['%q', ['a"b\n'], '"a\\"b\\n"'],
  ['%#q', ['ab'], '`ab`'],
  ['%+q', ['é'], '"\\u00e9"'],
  ['%x % x %X', ['hi', 'hi', 'hi'], '6869 68 69 6869'],
  ['%v %v %v', [true, null, 'x'], 'true <nil> x'],
  ['%t', [false], 'false'],
  ['%v', [1.5], '1.5'],
  ['%v', [f(1)], '1'],
  ['%v', [f(1e6)], '1e+06'],
  ['%v', [f(100000)], '100000'],
  ['%v', [0.000012], '1.2e-05'],
  ['%v', [f(-0)], '-0'],
  ['%v %v %v', [NaN, Infinity, -Infinity], 'NaN +Inf -Inf'],
  ['%f', [f(1)], '1.000000'],
  ['%.2f', [3.14159], '3.14'],
  ['%.0f %.0f %.0f %.0f', [0.5, 1.5, f(2.5), 3.5], '0 2 2 4'],
  ['%8.3f|%-8.3f|%08.3f', [3.14159, 3.14159, -3.14159], '   3.142|3.142   |-003.142'],
  ['%+.1f', [f(2)], '+2.0'],
  ['%e %E', [1234.5678, 1234.5678], '1.234568e+03 1.234568E+03'],
  ['%g %g %g', [1234.5678, 0.00001234, f(1e21)], '1234.5678 1.234e-05 1e+21'],
  ['%.3g %.10g', [1234.5678, 1234.5678], '1.23e+03 1234.5678'],
  ['%f', [f(1e21)], '1000000000000000000000.000000'],
  ['%x', [f(1)], '0x1p+00'],
  ['%x', [1.5], '0x1.8p+00'],
  ['%b', [f(1)], '4503599627370496p-52'],
  ['%d', [f(1)], '%!d(float64=1)'],
  ['%d', ['x'], '%!d(string=x)'],
  ['%s', [5], '%!s(int=5)'],
  ['%f', [5], '%!f(int=5)'],
  ['%d', [null], '%!d(<nil>)'],
  ['%z', [1], '%!z(int=1)'],
  ['%d %d', [1], '1 %!d(MISSING)'],
  ['%d', [1, 'x', null], '1%!(EXTRA string=x, <nil>)'],
  ['100%%', [], '100%'],
  ['%', [], '%!(NOVERB)'],
  ['%[2]d %[1]d', [1, 2], '2 1'],
  ['%[3]d', [1], '%!d(BADINDEX)'],
  ['%*d|%-*d', [4, 1, 3, 2], '   1|2  '],
  ['%.*f', [1, 3.14159], '3.1'],
  ['%v', [[1, 'a', null, [2]]], '[1 a <nil> [2]]'],
  ['%d', [[1, 2]], '[1 2]'],
  ['%d', [[1, 'a']], '[1 %!d(string=a)]'],
  ['%s', [['a', 'b']], '[a b]'],
  ['%q', [['a', 'b']], '["a" "b"]'],
  ['%v', [{ b: 1, a: { d: [1], c: null } }], 'map[a:map[c:<nil> d:[1]] b:1]'],
  ['%+v', [{ a: 1 }], 'map[a:1]'],
  ['%#v', [{ a: 1, b: 'x' }], 'map[string]interface {}{"a":1, "b":"x"}'],
  ['%#v', [[1, 'a', null]], '[]interface {}{1, "a", interface {}(nil)}'],
  ['%#v %#v', ['s', f(1)], '"s" 1'],
  [
    '%T %T %T %T %T %T %T',
    [1, 1.5, f(1), 's', true, [1], { a: 1 }],
    'int float64 float64 string bool []interface {} map[string]interface {}',
  ],
  ['%T', [null], '<nil>'],
  ['%6.2v|', ['abc'], '    ab|'],
  ['%*d', [10000000, 1], '%!(BADWIDTH)1'],
  ['%.*d', [-1, 1], '%!(BADPREC)1'],
  ['%99999999d|', [1], '%!(NOVERB)%!(EXTRA int=1)'],
];

for (const [format, args, want] of cases) {
  test(`Sprintf(${JSON.stringify(format)})`, () => assert.equal(sprintf(format, args), want));
}

test('Sprint spacing', () => {
  assert.equal(sprint([1, 2, 'a', 'b', 3, null]), '1 2ab3 <nil>');
  assert.equal(sprint(['a', 1, 'b']), 'a1b');
  assert.equal(sprintln(['a', 1, null]), 'a 1 <nil>\n');
});

test('formatFloat shortest and fixed', () => {
  const t: [number, string, number, string][] = [
    [0.1, 'g', -1, '0.1'],
    [123456789, 'g', -1, '1.23456789e+08'],
    [1e-7, 'f', -1, '0.0000001'],
    [2.675, 'f', 2, '2.67'],
    [1.005, 'f', 2, '1.00'],
    [9.995, 'f', 2, '9.99'],
    [0.125, 'f', 2, '0.12'],
    [0.375, 'f', 2, '0.38'],
    [99.5, 'e', 1, '1.0e+02'],
    [5e-324, 'g', -1, '5e-324'],
    [1.7976931348623157e308, 'g', -1, '1.7976931348623157e+308'],
    [0, 'e', 2, '0.00e+00'],
    [0, 'g', -1, '0'],
    [100, 'g', 2, '1e+02'],
    [100, 'g', 3, '100'],
  ];
  for (const [v, fmt, prec, want] of t) assert.equal(formatFloat(v, fmt, prec), want, `${v} ${fmt} ${prec}`);
});
