import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { JsonValue } from '../../../common/json.js';
import { pureStd } from './index.js';
import { StdError } from './std-error.js';

test('the table is well-formed', () => {
  const names = Object.keys(pureStd);
  assert.ok(names.length >= 50);
  for (const name of names) {
    const b = pureStd[name]!;
    assert.ok(b.params.length >= 1, name);
    for (const d of Object.keys(b.defaults ?? {})) assert.ok(b.params.includes(d), `${name}: default ${d}`);
    // optional parameters come last
    const firstOptional = b.params.findIndex((p) => b.defaults?.[p] !== undefined);
    if (firstOptional >= 0)
      assert.ok(
        b.params.slice(firstOptional).every((p) => b.defaults?.[p] !== undefined),
        name,
      );
  }
});

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.oneof(fc.integer({ min: -300, max: 300 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
    fc.oneof(
      fc.string(),
      fc.constantFrom('%d', '%(a)s', '%*.*f', '%', '%5%', 'a\nb\n', '---\na: 1', 'YQ==', '[1, 2]', '&a [*a]'),
    ),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
  ),
})).value as fc.Arbitrary<JsonValue>;

test('every pure builtin either returns JSON or throws StdError, for any data', () => {
  for (const [name, b] of Object.entries(pureStd)) {
    fc.assert(
      fc.property(fc.array(jsonValue, { minLength: b.params.length, maxLength: b.params.length }), (args) => {
        try {
          const out = b.fn(args);
          assert.notEqual(out, undefined);
        } catch (e) {
          if (!(e instanceof StdError)) throw new Error(`std.${name}(${JSON.stringify(args)}) threw ${String(e)}`);
        }
      }),
      { numRuns: 150, seed: 42 },
    );
  }
});

test('a value too deep for the JS stack is a StdError, not a RangeError', () => {
  let deep: JsonValue = [];
  for (let i = 0; i < 200000; i++) deep = [deep];
  assert.throws(() => pureStd.manifestJsonMinified!.fn([deep]), StdError);
});
