import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonValue } from '../../../common/json.js';
import { call, errorOf } from '../../../../test/support/jsonnet-std-calls.js';

test('std.format conversions', () => {
  const cases: [string, JsonValue, string][] = [
    ['%d', 42, '42'],
    ['%05d|%-5d|%+d', [42, 42, 42], '00042|42   |+42'],
    ['%d', -1.5, '-1'], // std.jsonnet truncates toward zero for %d
    ['%x', -1.5, '-2'], // ...but floors for %x
    ['%#o %#x %#X', [8, 255, 255], '010 0xff 0XFF'],
    ['%.3d', 7, '007'],
    ['%f', 0, '0.000000'],
    ['%.2f', 2.675, '2.68'],
    ['%08.3f', -3.14159, '-003.142'],
    ['%e', 12345.678, '1.234568e+04'],
    ['%.0e', 0, '0e+00'],
    ['%g|%g|%g', [0.0001, 0.00001, 1e7], '0.0001|1e-05|1e+07'],
    // log(1e6)/log(10) is 5.999..., so std.jsonnet prints 1e6 in %f form (C++ agrees)
    ['%g', 1e6, '1000000'],
    ['%#g', 1.5, '1.50000'],
    ['%G', 1e-10, '1E-10'],
    ['%c%c', [0x1f600, 'x'], '\u{1f600}x'],
    ['%s', [[1, 'a', { b: null }]], '[1, "a", {"b": null}]'],
    ['%s', [{}], '{ }'],
    ['%s', [0.1], '0.10000000000000001'],
    ['%5s|%-5s|', ['ü', 'ü'], '    ü|ü    |'],
    ['%*d|%.*f', [4, 1, 1, 2.25], '   1|2.3'], // std.jsonnet rounds half up
    ['%%|%5%|%-3%|', [], '%|    %|%  |'],
    ['%(x)s=%(y)03d %%', { x: 'a', y: 5 }, 'a=005 %'],
    ['%ld %hi %Lf', [1, 2, 3], '1 2 3.000000'],
    ['no codes', [], 'no codes'],
  ];
  for (const [fmt, vals, want] of cases) assert.equal(call('format', fmt, vals), want, fmt);
});

test('std.format errors match std.jsonnet', () => {
  const cases: [string, JsonValue, string][] = [
    ['%d', ['x'], 'Format required number at 0, got string'],
    ['%s %d', ['a', null], 'Format required number at 1, got null'],
    ['x %s', ['y', 'z'], 'Too many values to format: 2, expected 1'],
    ['%s %s', ['y'], 'Not enough values to format: 1, expected more than 1'],
    ['%*d', [], 'Not enough values to format: 0, expected at least 0'],
    ['%q', [1], 'Unrecognised conversion type: q'],
    ['abc %', [], 'Truncated format code.'],
    ['%(a', { a: 1 }, 'Truncated format code.'],
    ['%5', [1], 'Truncated format code.'],
    ['%s', { a: 1 }, 'Mapping keys required.'],
    ['%(b)s', { a: 1 }, 'No such field: b'],
    ['%(a)*s', { a: 1 }, 'Cannot use * field width with object.'],
    ['%(a).*f', { a: 1 }, 'Cannot use * precision with object.'],
    ['%(a)d', { a: 'x' }, 'Format required number at a, got string'],
    ['%c', ['ab'], '%c expected 1-sized string got: 2'],
    ['%c', [true], '%c expected number / string, got: boolean'],
    ['%c', [-1], 'Codepoints must be >= 0, got -1'],
    ['%*d', ['w', 1], 'Unexpected type string, expected number'],
  ];
  for (const [fmt, vals, want] of cases) assert.equal(errorOf('format', fmt, vals), want, fmt);
  // A bad code is reported before any bad value, since codes are parsed first.
  assert.equal(errorOf('format', '%d %z', ['x']), 'Unrecognised conversion type: z');
  assert.equal(errorOf('format', 1, []), 'Unexpected type number');
});

test('std.format keeps Jsonnet arithmetic failures', () => {
  assert.equal(errorOf('format', '%.400f', [1]), 'Overflow');
  assert.equal(errorOf('format', '%.10f', [1e300]), 'Overflow');
  assert.equal(call('format', '%.1e', [0.00001]), '1.0e-05');
});

test('std.format refuses absurd field widths instead of allocating them', () => {
  assert.equal(errorOf('format', '%999999999d', [1]), 'Format field width too large: 999999998');
});
