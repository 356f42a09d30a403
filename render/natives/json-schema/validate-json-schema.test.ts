/**
 * validateJSONSchema: the spec example end to end through the Jsonnet
 * engine, one table row per keyword (messages checked against
 * santhosh-tekuri/jsonschema v5.3.1 as kubecfg calls it, with kubecfg's
 * documented `file:///<keyword path>` form), and hazard 11 (deep and
 * cyclic `$ref`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../../../lang/common/json.js';
import { evaluate, ImportError, parseModule, type Importer } from '../../../lang/jsonnet/index.js';
import { SourceFile } from '../../../lang/common/source.js';
import { kubecfgLibsonnet, kubecfgNatives } from '../../index.js';
import { RenderError } from '../../errors.js';
import { validateJsonSchema } from './validate-json-schema.js';

const enc = new TextEncoder();

const specSchema = `{
   "properties": {
      "age": { "description": "Age in years which must be equal to or greater than zero.", "minimum": 0, "type": "integer" },
      "firstName": { "description": "The person's first name.", "type": "string" },
      "lastName": { "description": "The person's last name.", "type": "string" }
   },
   "type": "object"
}`;

function run(age: number): JsonValue {
  const program = `local kubecfg = import 'kubecfg.libsonnet';
{
  assert kubecfg.validateJSONSchema($.person, import 'schema.json'),

  person: {
    age: ${age},
  },
}`;
  const files: Record<string, string> = { 'kubecfg.libsonnet': kubecfgLibsonnet, 'schema.json': specSchema };
  const importer: Importer = {
    load(_from, path) {
      const text = files[path];
      if (text === undefined) throw new ImportError(`couldn't open import "${path}"`);
      return { foundAt: `/spec/${path}`, contents: enc.encode(text) };
    },
  };
  const module = parseModule(new SourceFile('/spec/example.jsonnet', program));
  return evaluate(module, { importer, natives: kubecfgNatives });
}

test('spec example: a valid person evaluates', () => {
  assert.deepEqual(run(26), { person: { age: 26 } });
});

test('spec example: age -1 is a RUNTIME ERROR with kubecfg text', () => {
  assert.throws(
    () => run(-1),
    (e: Error) => {
      assert.match(
        (e as { format?: () => string }).format?.() ?? String(e),
        /^RUNTIME ERROR: object is invalid against the schema: jsonschema: '\/age' does not validate with file:\/\/\/properties\/age\/minimum: must be >= 0 but found -1/,
      );
      return true;
    },
  );
});

const INVALID = 'object is invalid against the schema: jsonschema: ';
const COMPILE = 'unable to compile jsonschema: jsonschema file:/// compilation failed: ';

interface Row {
  name: string;
  value: JsonValue;
  schema: JsonValue;
  /** Expected message, or true for valid. */
  want: string | true;
}

const rows: Row[] = [
  {
    name: 'type',
    value: 2.5,
    schema: { type: ['integer', 'string'] },
    want: `${INVALID}'' does not validate with file:///type: expected integer or string, but got number`,
  },
  { name: 'integer accepts 1e300', value: 1e300, schema: { type: 'integer' }, want: true },
  {
    name: 'const scalar',
    value: 1,
    schema: { const: 'x y\'"z' },
    want: `${INVALID}'' does not validate with file:///const: value must be "x y'\\"z"`,
  },
  {
    name: 'const number prints as json.Number',
    value: 3,
    schema: { const: 1.5 },
    want: `${INVALID}'' does not validate with file:///const: value must be "1.5"`,
  },
  {
    name: 'const object',
    value: 1,
    schema: { const: { a: 1 } },
    want: `${INVALID}'' does not validate with file:///const: const failed`,
  },
  {
    name: 'enum',
    value: 3,
    schema: { enum: [1, 'a', true, null, 2.5, 1e21] },
    want: `${INVALID}'' does not validate with file:///enum: value must be one of "1", "a", true, <nil>, "2.5", "1e+21"`,
  },
  {
    name: 'minProperties before required',
    value: { b: 'x', a: 'y' },
    schema: { type: 'object', required: ['a', 'c', 'd'], maxProperties: 1, properties: { a: { type: 'number' } } },
    want: `${INVALID}'' does not validate with file:///maxProperties: maximum 1 properties allowed, but found 2 properties`,
  },
  {
    name: 'required',
    value: { a: 1 },
    schema: { required: ['b', 'c'] },
    want: `${INVALID}'' does not validate with file:///required: missing properties: 'b', 'c'`,
  },
  {
    name: 'properties with escaped name',
    value: { 'a b/c~': 1 },
    schema: { properties: { 'a b/c~': { type: 'string' } } },
    want: `${INVALID}'/a%20b~1c~0' does not validate with file:///properties/a%20b~1c~0/type: expected string, but got number`,
  },
  {
    name: 'additionalProperties false',
    value: { x: 1, y: 2 },
    schema: { additionalProperties: false },
    want: `${INVALID}'' does not validate with file:///additionalProperties: additionalProperties 'x', 'y' not allowed`,
  },
  {
    name: 'additionalProperties schema',
    value: { "it's": 1 },
    schema: { additionalProperties: { type: 'string' } },
    want: `${INVALID}'/it%27s' does not validate with file:///additionalProperties/type: expected string, but got number`,
  },
  {
    name: 'patternProperties (RE2)',
    value: { 'x\ny': 1 },
    schema: { patternProperties: { '^x': { type: 'string' } } },
    want: `${INVALID}'/x%0Ay' does not validate with file:///patternProperties/%5Ex/type: expected string, but got number`,
  },
  {
    name: 'propertyNames',
    value: { a: 1 },
    schema: { propertyNames: { maxLength: 0 } },
    want: `${INVALID}'/a' does not validate with file:///propertyNames/maxLength: length must be <= 0, but got 1`,
  },
  {
    name: 'dependentRequired',
    value: { a: 1 },
    schema: { dependentRequired: { a: ['b', 'c'] } },
    want: `${INVALID}'' does not validate with file:///dependentRequired/a/0: property 'b' is required, if 'a' property exists`,
  },
  {
    name: 'dependentSchemas',
    value: { a: 1, b: 2 },
    schema: { dependentSchemas: { a: { required: ['c'] } } },
    want: `${INVALID}'' does not validate with file:///dependentSchemas/a/required: missing properties: 'c'`,
  },
  {
    name: 'minItems',
    value: [],
    schema: { minItems: 1, maxItems: 0 },
    want: `${INVALID}'' does not validate with file:///minItems: minimum 1 items required, but found 0 items`,
  },
  {
    name: 'uniqueItems compares numbers by value',
    value: [{ a: [1, 2] }, { a: [1, 2.0] }],
    schema: { uniqueItems: true },
    want: `${INVALID}'' does not validate with file:///uniqueItems: items at index 0 and 1 are equal`,
  },
  {
    name: 'uniqueItems over 20 items',
    value: [...Array.from({ length: 22 }, (_, i) => i + 1), 5],
    schema: { uniqueItems: true },
    want: `${INVALID}'' does not validate with file:///uniqueItems: items at index 4 and 22 are equal`,
  },
  {
    name: 'prefixItems then items',
    value: [1, 'a', null],
    schema: { prefixItems: [{ type: 'number' }, { type: 'number' }], items: { type: 'string' } },
    want: `${INVALID}'/1' does not validate with file:///prefixItems/1/type: expected number, but got string`,
  },
  {
    name: 'items false',
    value: [1, 'a'],
    schema: { prefixItems: [{}], items: false },
    want: `${INVALID}'/1' does not validate with file:///items: not allowed`,
  },
  {
    name: 'nested items',
    value: { k: [{ n: 'a' }, { n: 5 }] },
    schema: { properties: { k: { type: 'array', items: { properties: { n: { type: 'string', maxLength: 0 } } } } } },
    want: `${INVALID}'/k/0/n' does not validate with file:///properties/k/items/properties/n/maxLength: length must be <= 0, but got 1`,
  },
  {
    name: 'contains',
    value: [],
    schema: { contains: { type: 'string' } },
    want: `${INVALID}'' does not validate with file:///minContains: valid must be >= 1, but got 0`,
  },
  {
    name: 'maxContains',
    value: [1, 2],
    schema: { contains: { type: 'number' }, maxContains: 1 },
    want: `${INVALID}'' does not validate with file:///maxContains: valid must be <= 1, but got 2`,
  },
  {
    name: 'minLength counts code points',
    value: 'héllo',
    schema: { minLength: 10 },
    want: `${INVALID}'' does not validate with file:///minLength: length must be >= 10, but got 5`,
  },
  {
    name: 'pattern',
    value: 'abc',
    schema: { pattern: '^z' },
    want: `${INVALID}'' does not validate with file:///pattern: does not match pattern '^z'`,
  },
  { name: 'format is an annotation', value: 'nope', schema: { format: 'email' }, want: true },
  {
    name: 'maximum with %v formatting',
    value: 123456789,
    schema: { maximum: 1 },
    want: `${INVALID}'' does not validate with file:///maximum: must be <= 1 but found 1.23456789e+08`,
  },
  {
    name: 'small numbers',
    value: 1e-7,
    schema: { maximum: 1e-8 },
    want: `${INVALID}'' does not validate with file:///maximum: must be <= 1e-08 but found 1e-07`,
  },
  {
    name: 'exclusiveMaximum',
    value: 3.5,
    schema: { exclusiveMaximum: 3 },
    want: `${INVALID}'' does not validate with file:///exclusiveMaximum: must be < 3 but found 3.5`,
  },
  {
    name: 'exclusiveMinimum',
    value: 0,
    schema: { exclusiveMinimum: 0 },
    want: `${INVALID}'' does not validate with file:///exclusiveMinimum: must be > 0 but found 0`,
  },
  { name: 'multipleOf is exact in decimal', value: 0.3, schema: { multipleOf: 0.1 }, want: true },
  {
    name: 'multipleOf',
    value: 0.30000000000000004,
    schema: { multipleOf: 0.1 },
    want: `${INVALID}'' does not validate with file:///multipleOf: 0.30000000000000004 not multipleOf 0.1`,
  },
  {
    name: 'anyOf reports its first branch',
    value: 1,
    schema: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    want: `${INVALID}'' does not validate with file:///anyOf/0/type: expected string, but got number`,
  },
  {
    name: 'oneOf twice',
    value: 1,
    schema: { oneOf: [{ type: 'number' }, { minimum: 0 }] },
    want: `${INVALID}'' does not validate with file:///oneOf: valid against schemas at indexes 0 and 1`,
  },
  {
    name: 'allOf',
    value: 'abc',
    schema: { allOf: [{ minLength: 1 }, { maxLength: 2 }] },
    want: `${INVALID}'' does not validate with file:///allOf/1/maxLength: length must be <= 2, but got 3`,
  },
  {
    name: 'not',
    value: 1,
    schema: { not: { type: 'number' } },
    want: `${INVALID}'' does not validate with file:///not: not failed`,
  },
  {
    name: 'if/then',
    value: 1,
    schema: { if: { type: 'number' }, then: { minimum: 5 } },
    want: `${INVALID}'' does not validate with file:///then/minimum: must be >= 5 but found 1`,
  },
  {
    name: 'if/else',
    value: false,
    schema: { if: { const: true }, else: { const: true } },
    want: `${INVALID}'' does not validate with file:///else/const: value must be true`,
  },
  { name: 'false schema', value: 1, schema: false, want: `${INVALID}'' does not validate with file:///: not allowed` },
  {
    name: '$ref into $defs',
    value: { a: [1] },
    schema: { properties: { a: { items: { $ref: '#/$defs/p' } } }, $defs: { p: { type: 'object' } } },
    want: `${INVALID}'/a/0' does not validate with file:///properties/a/items/$ref/type: expected object, but got number`,
  },
  {
    name: '$ref keeps siblings in 2020-12',
    value: 1,
    schema: { minimum: 0, $ref: '#/$defs/a', $defs: { a: { maximum: 0 } } },
    want: `${INVALID}'' does not validate with file:///$ref/maximum: must be <= 0 but found 1`,
  },
  {
    name: 'recursive $ref',
    value: { a: { b: { c: 5 } } },
    schema: { $defs: { n: { type: 'object', additionalProperties: { $ref: '#/$defs/n' } } }, $ref: '#/$defs/n' },
    want: `${INVALID}'/a/b/c' does not validate with file:///$ref/additionalProperties/$ref/additionalProperties/$ref/additionalProperties/$ref/type: expected object, but got number`,
  },
  {
    name: '$anchor',
    value: 1,
    schema: { $ref: '#foo', $defs: { x: { $anchor: 'foo', type: 'string' } } },
    want: `${INVALID}'' does not validate with file:///$ref/type: expected string, but got number`,
  },
  {
    name: 'draft-07 $ref ignores siblings',
    value: 5,
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $ref: '#/definitions/a',
      maximum: 1,
      definitions: { a: { minimum: 10 } },
    },
    want: `${INVALID}'' does not validate with file:///$ref/minimum: must be >= 10 but found 5`,
  },
  {
    name: 'draft-07 additionalItems',
    value: [1, 'a'],
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      items: [{ type: 'number' }],
      additionalItems: { type: 'number' },
    },
    want: `${INVALID}'/1' does not validate with file:///additionalItems/type: expected number, but got string`,
  },
  {
    name: 'draft-07 dependencies',
    value: { a: 1 },
    schema: { $schema: 'http://json-schema.org/draft-07/schema#', dependencies: { a: ['b'] } },
    want: `${INVALID}'' does not validate with file:///dependencies/a/0: property 'b' is required, if 'a' property exists`,
  },
  {
    name: 'draft-04 boolean exclusiveMinimum',
    value: 1,
    schema: { $schema: 'http://json-schema.org/draft-04/schema#', minimum: 1, exclusiveMinimum: true },
    want: `${INVALID}'' does not validate with file:///exclusiveMinimum: must be > 1 but found 1`,
  },
  {
    name: 'draft-07 ignores prefixItems',
    value: [1, 'a'],
    schema: { $schema: 'http://json-schema.org/draft-07/schema#', prefixItems: [{ type: 'string' }] },
    want: true,
  },
  {
    name: 'draft-04 ignores const',
    value: 1,
    schema: { $schema: 'http://json-schema.org/draft-04/schema#', const: 2 },
    want: true,
  },
  {
    name: 'draft-06 ignores if',
    value: 1,
    schema: { $schema: 'http://json-schema.org/draft-06/schema#', if: { type: 'number' }, then: false },
    want: true,
  },
  {
    name: 'dependencies still apply in 2020-12',
    value: { a: 1 },
    schema: { dependencies: { a: ['b'] } },
    want: `${INVALID}'' does not validate with file:///dependencies/a/0: property 'b' is required, if 'a' property exists`,
  },
  {
    name: 'draft-07 enum values must differ',
    value: 1,
    schema: { $schema: 'http://json-schema.org/draft-07/schema#', enum: [1, 1.0] },
    want: `${COMPILE}'/enum' does not validate with the draft-07 metaschema: items at index 0 and 1 are equal`,
  },
  {
    name: 'a $ref target is checked when reached',
    value: 1,
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $ref: '#/$defs/x',
      $defs: { x: { required: ['a', 'a'], type: 'string' } },
    },
    want: `${COMPILE}'/$defs/x/required' does not validate with the draft-07 metaschema: items at index 0 and 1 are equal`,
  },
  {
    name: 'unreferenced $defs are not compiled',
    value: 1,
    schema: { $defs: { p: { $ref: '#/$defs/p' } } },
    want: true,
  },
  {
    name: '$ref not found',
    value: 1,
    schema: { $ref: '#/$defs/nope' },
    want: `${COMPILE}file:///$defs/nope not found`,
  },
  { name: 'self $ref', value: 1, schema: { $ref: '#' }, want: `${COMPILE}infinite loop file:///$ref` },
  {
    name: 'mutual $ref',
    value: 1,
    schema: { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
    want: `${COMPILE}infinite loop file:///$ref/$ref/$ref`,
  },
  {
    name: '$ref loop below properties',
    value: 1,
    schema: { properties: { a: { $ref: '#/properties/a' } } },
    want: `${COMPILE}infinite loop file:///properties/a/$ref`,
  },
  {
    name: 'allOf loop',
    value: 1,
    schema: { allOf: [{ $ref: '#' }] },
    want: `${COMPILE}infinite loop file:///allOf/0/$ref`,
  },
  {
    name: 'bad pattern',
    value: 'a',
    schema: { pattern: '(' },
    want: `${COMPILE}'/pattern' does not validate with the draft 2020-12 metaschema: '(' is not valid 'regex'`,
  },
  {
    name: 'bad keyword type',
    value: 1,
    schema: { minimum: 'x' },
    want: `${COMPILE}'/minimum' does not validate with the draft 2020-12 metaschema: expected number, but got string`,
  },
  {
    name: 'remote $ref',
    value: 1,
    schema: { $ref: 'https://example.com/s.json' },
    want: `${COMPILE}$ref "https://example.com/s.json" points outside this schema document; only references within it (#...) are followed`,
  },
];

for (const row of rows) {
  test(`keyword: ${row.name}`, () => {
    if (row.want === true) {
      assert.equal(validateJsonSchema(row.value, row.schema), true);
      return;
    }
    assert.throws(
      () => validateJsonSchema(row.value, row.schema),
      (e: unknown) => e instanceof RenderError && e.message === row.want,
    );
  });
}

test('hazard 11: a 10k-deep $ref chain is an error, not a stack overflow', () => {
  const defs: Record<string, JsonValue> = {};
  for (let i = 0; i < 10000; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  defs.d10000 = { type: 'string' };
  const schema = { $ref: '#/$defs/d0', $defs: defs };
  assert.throws(
    () => validateJsonSchema('x', schema),
    (e: unknown) => e instanceof RenderError && /compilation failed: .*deeper than 1000/.test(e.message),
  );
});

test('hazard 11: a 200-deep $ref chain still validates', () => {
  const defs: Record<string, JsonValue> = {};
  for (let i = 0; i < 200; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  defs.d200 = { type: 'string' };
  assert.equal(validateJsonSchema('x', { $ref: '#/$defs/d0', $defs: defs }), true);
});

test('hazard 11: self-referential $ref through the engine is a RUNTIME ERROR', () => {
  const program = `std.native('validateJSONSchema')({}, { "$ref": "#/$defs/a", "$defs": { a: { "$ref": "#/$defs/a" } } })`;
  const module = parseModule(new SourceFile('/t/loop.jsonnet', program));
  assert.throws(
    () => evaluate(module, { natives: kubecfgNatives }),
    (e: Error) =>
      /^RUNTIME ERROR: unable to compile jsonschema: .*infinite loop file:\/\/\/\$ref\/\$ref/.test(
        (e as { format?: () => string }).format?.() ?? String(e),
      ),
  );
});

test('a deeply nested instance is an error, not a stack overflow', () => {
  let value: JsonValue = 1;
  for (let i = 0; i < 5000; i++) value = [value];
  const schema = { $defs: { n: { items: { $ref: '#/$defs/n' } } }, $ref: '#/$defs/n' };
  assert.throws(
    () => validateJsonSchema(value, schema),
    (e: unknown) => e instanceof RenderError && e.code === 'RENDER_TOO_DEEP',
  );
});
