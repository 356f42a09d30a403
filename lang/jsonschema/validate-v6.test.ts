// santhosh-tekuri/jsonschema v6's error tree and wording (Helm 3.18's values.schema.json check).
// Each expected text was printed by the library itself (a small Go program around v6.0.2 with
// golang.org/x/text v0.14.0; /work/tools/README tells how it was built).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../common/json.js';
import { compileSchema } from './compile-schema.js';
import { ValidatorV6 } from './validate-v6.js';
import { localizedFloat, v6ErrorLines } from './v6-text.js';

function errorText(schema: JsonValue, value: JsonValue): string {
  const causes = new ValidatorV6(compileSchema(schema, { unknownSchemaDraft: 2020 })).validateRoot(value);
  return causes ? v6ErrorLines(causes) : '';
}

const cases: [string, JsonValue, JsonValue, string][] = [
  ['valid', { type: 'object' }, {}, ''],
  [
    'type, in the library order of type names',
    { type: ['string', 'null', 'integer'] },
    1.5,
    "- at '': got number, want null or integer or string",
  ],
  ['required, one', { required: ['a'] }, {}, "- at '': missing property 'a'"],
  ['required, several', { required: ['b', 'a'] }, {}, "- at '': missing properties 'b', 'a'"],
  [
    'minimum of a nested value',
    { properties: { age: { minimum: 0 } } },
    { age: -5 },
    "- at '/age': minimum: got -5, want 0",
  ],
  ['enum of strings', { enum: ['debug', 'info'] }, 'x', "- at '': value must be one of 'debug', 'info'"],
  ['const', { const: 80 }, 81, "- at '': value must be 80"],
  ['const object', { const: { a: 1 } }, 1, "- at '': const failed"],
  [
    'two errors of the root are listed, not grouped',
    { required: ['z'], minProperties: 2 },
    { a: 1 },
    "- at '': minProperties: got 1, want 2\n- at '': missing property 'z'",
  ],
  [
    'lengths and pattern',
    { minLength: 3, pattern: '^[a-z]+$' },
    'A',
    "- at '': minLength: got 1, want 3\n- at '': 'A' does not match pattern '^[a-z]+$'",
  ],
  [
    'additional properties',
    { properties: { a: {} }, additionalProperties: false },
    { a: 1, c: 2, b: 3 },
    "- at '': additional properties 'b', 'c' not allowed",
  ],
  ['uniqueItems', { uniqueItems: true }, [1, 2, 1, 2], "- at '': items at 0 and 2 are equal"],
  ['minItems with thousands', { minItems: 1000 }, [], "- at '': minItems: got 0, want 1,000"],
  [
    'allOf wraps its failures',
    { allOf: [{ type: 'string' }, { minimum: 5 }] },
    1,
    "- at '': allOf failed\n  - at '': got number, want string\n  - at '': minimum: got 1, want 5",
  ],
  [
    'oneOf, none',
    { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
    1,
    "- at '': oneOf failed, none matched\n  - at '': got number, want string\n  - at '': got number, want boolean",
  ],
  ['oneOf, two', { oneOf: [{ type: 'number' }, { minimum: 0 }] }, 1, "- at '': oneOf failed, subschemas 0, 1 matched"],
  [
    'if/then adds its errors directly',
    { if: { type: 'number' }, then: { minimum: 5 } },
    1,
    "- at '': minimum: got 1, want 5",
  ],
  [
    'contains',
    { contains: { type: 'string' } },
    [1],
    "- at '': no items match contains schema\n  - at '/0': got number, want string",
  ],
  [
    'items after prefixItems are named by their index in the rest',
    { prefixItems: [{}, {}], items: { type: 'string' } },
    [1, 2, 3],
    "- at '/0': got number, want string",
  ],
  [
    'a $ref with one cause is not printed',
    { $defs: { d: { type: 'string' } }, properties: { a: { $ref: '#/$defs/d' } } },
    { a: 1 },
    "- at '/a': got number, want string",
  ],
  [
    'a $ref with several causes',
    { $defs: { d: { minLength: 5, pattern: '^b' } }, $ref: '#/$defs/d' },
    'a',
    "- at '': validation failed\n  - at '': minLength: got 1, want 5\n  - at '': 'a' does not match pattern '^b'",
  ],
  [
    'pointer tokens are escaped, not percent-encoded',
    { properties: { 'd/x': { type: 'string' }, 'e~y z': { type: 'string' } } },
    { 'd/x': 1, 'e~y z': 2 },
    "- at '/d~1x': got number, want string\n- at '/e~0y z': got number, want string",
  ],
  [
    'propertyNames sit at the root of their own validation',
    { propertyNames: { maxLength: 1 } },
    { ab: 1 },
    "- at '': invalid propertyName 'ab'\n  - at '': maxLength: got 2, want 1",
  ],
  [
    'dependentRequired',
    { dependentRequired: { a: ['b', 'c'] } },
    { a: 1 },
    "- at '': properties 'b', 'c' required, if 'a' exists",
  ],
  ['false schema', { properties: { a: false } }, { a: 1 }, "- at '/a': false schema"],
];

for (const [name, schema, value, want] of cases) {
  test(`v6: ${name}`, () => assert.equal(errorText(schema, value), want));
}

test('v6: numbers as the English printer writes them', () => {
  const table: [number, string][] = [
    [0, '0'],
    [-5, '-5'],
    [0.5, '0.5'],
    [1234.5678, '1,234.5678'],
    [999999.999, '999,999.999'],
    [123456789, '1.23456789\u202f×\u202f10⁰⁸'],
    [1e21, '1\u202f×\u202f10²¹'],
    [0.0001, '0.0001'],
    [0.00001, '1\u202f×\u202f10⁻⁰⁵'],
    [-1234567.25, '-1.23456725\u202f×\u202f10⁰⁶'],
    [1e300, '1\u202f×\u202f10³⁰⁰'],
  ];
  for (const [x, want] of table) assert.equal(localizedFloat(x), want, String(x));
});
