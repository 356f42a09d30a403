/**
 * The native JSON path must print exactly what the Go-faithful encoder prints, or decline.
 * Every case compares against lang/go/encoding-json's marshal, the reference for kubecfg's output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareCodepoints, jsonObject, type JsonValue } from '../../lang/common/json.js';
import { marshal } from '../../lang/go/encoding-json.js';
import { nativeGoJson } from './native-json.js';
import { formatJsonObjects, goMarshalIndent } from './json.js';

const goText = (v: JsonValue, indent: string | null): string =>
  marshal(v, { indent: indent ?? undefined, escapeHtml: true, unsupported: () => assert.fail('unsupported') });

test('native text equals encoding/json text where it answers', () => {
  const cases: [string, JsonValue][] = [
    ['layout', { a: 1, b: [1, { c: {} }, []], d: { e: null, f: true, g: false } }],
    ['HTML characters and line separators', { q: 'up{job="a"} > 0 && x < 1 <b>&amp;', s: 'a\u2028b\u2029c' }],
    ['control characters', { c: '\b\f\n\r\t\x00\x01\x1f\x7f' }],
    ['quotes and backslashes', { k: 'say "hi" \\ \\u2028 \\n' }],
    ['paired surrogates', { '😀': '😀 ok' }],
    ['numbers', [0, 1, -1, 1.5, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, 0.000001, 1e20]],
    ['deep but sorted', { a: { b: { c: { d: [[[{ e: 'x' }]]] } } } }],
    ['keys that look numeric but are no array index', { '-1': 1, '01': 2, '1.5': 3, '4294967295': 4, a: 5 }],
    ['empty containers', [{}, [], '', { x: [] }]],
  ];
  for (const [name, value] of cases)
    for (const indent of [null, '  ', '\t', ' '.repeat(10)]) {
      const got = nativeGoJson(value, indent);
      assert.notEqual(got, undefined, `${name} (indent ${JSON.stringify(indent)}) should take the native path`);
      assert.equal(got, goText(value, indent), `${name} (indent ${JSON.stringify(indent)})`);
    }
});

test('declines where JSON.stringify would differ from Go', () => {
  const declined: [string, JsonValue, string | null][] = [
    ['-0 (JSON.stringify prints 0)', { a: -0 }, '  '],
    ['NaN (JSON.stringify prints null)', [NaN], null],
    ['Infinity', { a: { b: Infinity } }, '  '],
    [
      'keys out of code point order',
      jsonObject([
        ['b', 1],
        ['a', 2],
      ]),
      '  ',
    ],
    [
      'astral key before a high BMP key',
      jsonObject([
        ['😀', 1],
        ['\uffff', 2],
      ]),
      null,
    ],
    [
      'array-index keys (JS enumerates them first)',
      jsonObject([
        ['a', 1],
        ['10', 2],
        ['9', 3],
      ]),
      '  ',
    ],
    ['a lone surrogate (Go writes \\ufffd)', { a: 'x\ud800y' }, '  '],
    ['text that only looks like a lone surrogate escape (declined to be safe)', { a: '\\ud800' }, null],
    ['an empty indent (Go still breaks lines)', { a: 1 }, ''],
    ['an indent longer than 10 (JSON.stringify caps it)', { a: [1] }, ' '.repeat(11)],
  ];
  for (const [name, value, indent] of declined) assert.equal(nativeGoJson(value, indent), undefined, name);
});

test('a value too deep for the stack declines instead of throwing', () => {
  let deep: JsonValue = 'leaf';
  for (let i = 0; i < 200_000; i++) deep = [deep];
  assert.equal(nativeGoJson(deep, '  '), undefined);
});

test('goMarshalIndent and show -o json keep Go text on every path (declined values included)', () => {
  const value = jsonObject([
    ['z', -0],
    ['a', 'x\ud800 <&>'],
    ['10', [1e-7]],
  ]);
  assert.equal(goMarshalIndent(value, '  '), goText(value, '  '));
  assert.equal(goMarshalIndent(value, null), goText(value, null));
  const objs: JsonValue[] = [value, { a: 'b > c' }];
  assert.equal(formatJsonObjects(objs), objs.map((o) => goText(o, '  ') + '\n').join('---\n'));
});

test('property: native text equals Go text, or declines', () => {
  const key = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.constantFrom('__proto__', '0', '7', '10', '01', 'toJSON', '\uffff', '😀', '\ud800', '<', 'a&b'),
  );
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.constantFrom(-0, 0, 1e21, 1e-7, 1e-6, 123.456),
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('<>&', '\u2028', '\ud800', '\udc00x', '\\ud800', '\b\f\x01'),
  );
  const value = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      scalar,
      fc.array(tie('v'), { maxLength: 4 }),
      // Half the objects with their keys in code point order, as the Jsonnet manifest builds them.
      fc
        .tuple(fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }), fc.boolean())
        .map(([entries, sorted]) =>
          jsonObject(sorted ? [...entries].sort(([a], [b]) => compareCodepoints(a, b)) : entries),
        ),
    ),
  })).v;
  fc.assert(
    fc.property(value, fc.constantFrom(null, '  ', '\t', ''), (v, indent) => {
      const got = nativeGoJson(v, indent);
      if (got === undefined) return;
      assert.equal(got, goText(v, indent));
    }),
    { numRuns: 3000 },
  );
});
