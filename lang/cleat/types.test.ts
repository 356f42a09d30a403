/**
 * Subtyping (§3.1) and normalization (§3.2) as tables, plus property tests:
 * a value accepted by a refined type is accepted by the original, and a value
 * accepted by a subtype is accepted by the supertype.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { conform } from './conform.js';
import { parseExpression } from './parser.js';
import { SourceFile } from '../common/source.js';
import { CleatError } from './diagnostics.js';
import { isSubtype, normalize, showType, T, union, type Ty } from './types.js';
import { ObjectValue, type Value } from './value.js';

const rec = (fields: [string, Ty, boolean?][], open = false): Ty =>
  T.record(
    fields.map(([name, type, optional]) => ({ name, type, optional: optional ?? false })),
    open,
  );

const SUB: [string, Ty, Ty, boolean][] = [
  ['Int <: Float', T.int, T.float, true],
  ['Float </: Int', T.float, T.int, false],
  ['"dev" <: Str', T.lit('dev'), T.str, true],
  ['42 <: Int', T.lit(42n), T.int, true],
  ['42 <: Float', T.lit(42n), T.float, true],
  ['1.5 </: Int', T.lit(1.5), T.int, false],
  ['true <: Bool', T.lit(true), T.bool, true],
  ['Bool <: true | false', T.bool, { k: 'union', members: [T.lit(true), T.lit(false)] }, true],
  ['Never <: Int', T.never, T.int, true],
  ['Str <: Json', T.str, T.json, true],
  ['Json </: Str', T.json, T.str, false],
  ['null <: Str | null', T.null, union([T.str, T.null]), true],
  ['Str | null </: Str', union([T.str, T.null]), T.str, false],
  ['[Int] <: [Float]', T.list(T.int), T.list(T.float), true],
  ['(Int, Str) <: [Int | Str]', T.tuple([T.int, T.str]), T.list(union([T.int, T.str])), true],
  ['[Int] </: (Int,)', T.list(T.int), T.tuple([T.int]), false],
  ['(Int, Int) </: (Int,)', T.tuple([T.int, T.int]), T.tuple([T.int]), false],
  ['{a: Int} <: {a: Float}', rec([['a', T.int]]), rec([['a', T.float]]), true],
  [
    '{a: Int} </: {a: Int, b: Int}',
    rec([['a', T.int]]),
    rec([
      ['a', T.int],
      ['b', T.int],
    ]),
    false,
  ],
  [
    '{a: Int} <: {a: Int, b?: Int}',
    rec([['a', T.int]]),
    rec([
      ['a', T.int],
      ['b', T.int, true],
    ]),
    true,
  ],
  [
    '{a: Int, b: Int} </: {a: Int} (exact)',
    rec([
      ['a', T.int],
      ['b', T.int],
    ]),
    rec([['a', T.int]]),
    false,
  ],
  [
    '{a: Int, b: Int} <: {a: Int, ..}',
    rec([
      ['a', T.int],
      ['b', T.int],
    ]),
    rec([['a', T.int]], true),
    true,
  ],
  ['{a: Int, ..} </: {a: Int}', rec([['a', T.int]], true), rec([['a', T.int]]), false],
  ['{a?: Int} </: {a: Int}', rec([['a', T.int, true]]), rec([['a', T.int]]), false],
  ['{a: Int} <: {[Str]: Int}', rec([['a', T.int]]), T.map(T.int), true],
  ['{[Str]: Int} <: {[Str]: Float}', T.map(T.int), T.map(T.float), true],
  ['{[Str]: Int} </: {a: Int}', T.map(T.int), rec([['a', T.int]]), false],
  ['{} <: {kind: "X"} (implicit default)', rec([]), rec([['kind', T.lit('X')]]), true],
  ['"a" | "b" <: Str', union([T.lit('a'), T.lit('b')]), T.str, true],
  ['Str </: "a" | "b"', T.str, union([T.lit('a'), T.lit('b')]), false],
];

test('subtyping table', () => {
  for (const [name, a, b, want] of SUB) assert.equal(isSubtype(a, b), want, name);
});

const NORM: [string, Ty, string][] = [
  ['flatten', { k: 'union', members: [T.int, { k: 'union', members: [T.str, T.null] }] }, 'Int | Str | null'],
  ['drop Never', { k: 'union', members: [T.never, T.str] }, 'Str'],
  ['"dev" | Str = Str', { k: 'union', members: [T.lit('dev'), T.str] }, 'Str'],
  ['Int | Float = Float', { k: 'union', members: [T.int, T.float] }, 'Float'],
  ['true | false = Bool', { k: 'union', members: [T.lit(true), T.lit(false)] }, 'Bool'],
  ['duplicates', { k: 'union', members: [T.lit('a'), T.lit('a'), T.lit('b')] }, '"a" | "b"'],
  ['required Never field', rec([['a', T.never]]), 'Never'],
  ['optional Never field stays', rec([['a', T.never, true]]), '{ a?: Never }'],
  ['only Never', { k: 'union', members: [T.never] }, 'Never'],
];

test('normalization table', () => {
  for (const [name, t, want] of NORM) assert.equal(showType(normalize(t)), want, name);
  const f = new SourceFile('t', 'false');
  const pred = parseExpression(f).expr!;
  assert.equal(showType(normalize({ k: 'refine', base: T.int, pred })), 'Never', 'T where false');
});

// ---- property tests ----
const arbValue: fc.Arbitrary<Value> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(tie('v'), { maxLength: 4 }),
    fc
      .dictionary(fc.string(), tie('v'), { maxKeys: 4 })
      .map((o) => new ObjectValue(new Map(Object.entries(o) as [string, Value][]))),
  ),
})).v as fc.Arbitrary<Value>;

const arbType: fc.Arbitrary<Ty> = fc.letrec((tie) => ({
  t: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(T.null, T.bool, T.int, T.float, T.str, T.json, T.never),
    fc.oneof(fc.string({ maxLength: 2 }), fc.boolean(), fc.bigInt({ min: -3n, max: 3n })).map((v) => T.lit(v)),
    tie('t').map((e) => T.list(e as Ty)),
    tie('t').map((e) => T.map(e as Ty)),
    fc.array(tie('t'), { maxLength: 3 }).map((ms) => union(ms as Ty[])),
    fc
      .tuple(fc.constantFrom('a', 'b'), tie('t'), fc.boolean(), fc.boolean())
      .map(([n, t, opt, open]) => rec([[n, t as Ty, opt]], open)),
  ),
})).t;

const accepts = (v: Value, t: Ty): boolean => {
  try {
    conform(v, t, '', {
      predicate: (r, x) => (typeof x === 'bigint' ? x >= 0n : r !== undefined),
      fieldDefault: () => null,
    });
    return true;
  } catch (e) {
    if (e instanceof CleatError) return false;
    throw e;
  }
};

test('property: a value of a refined type is a value of the original type', () => {
  const pred = parseExpression(new SourceFile('p', 'self >= 0')).expr!;
  fc.assert(
    fc.property(arbValue, arbType, (v, t) => {
      const refined: Ty = { k: 'refine', base: t, pred };
      if (accepts(v, refined)) assert.ok(accepts(v, t));
    }),
    { numRuns: 300 },
  );
});

test('property: subtyping is sound for the values conform() accepts', () => {
  fc.assert(
    fc.property(arbValue, arbType, arbType, (v, a, b) => {
      if (isSubtype(a, b) && accepts(v, a)) assert.ok(accepts(v, b), `${showType(a)} <: ${showType(b)}`);
    }),
    { numRuns: 500 },
  );
});

/** The value `t` makes of `v` (defaults filled in), or undefined when `t` refuses it. */
const conformed = (v: Value, t: Ty): Value | undefined => {
  try {
    return conform(v, t, '', {
      predicate: (r, x) => (typeof x === 'bigint' ? x >= 0n : r !== undefined),
      fieldDefault: () => null,
    });
  } catch (e) {
    if (e instanceof CleatError) return undefined;
    throw e;
  }
};

// Normalization removes a member that is a subtype of another (§3.2), and subtyping is about the
// values a type holds once its defaults are filled in: `{ b: 0 }` (whose single-literal field is an
// implicit default, §3) is a subtype of `{ b: Float }` although only it accepts `{}` as input. So the
// property is on values: every value a member makes is a value of the normalized union, and the
// normalized union accepts nothing that no member accepts.
test('property: normalization keeps the set of values', () => {
  fc.assert(
    fc.property(arbValue, fc.array(arbType, { maxLength: 3 }), (v, ms) => {
      const raw: Ty = { k: 'union', members: ms };
      const norm = normalize(raw);
      for (const m of ms) {
        const made = conformed(v, m);
        if (made !== undefined) assert.ok(accepts(made, norm), `${showType(m)} made a value ${showType(norm)} refuses`);
      }
      if (accepts(v, norm))
        assert.ok(
          ms.some((m) => accepts(v, m)),
          `${showType(norm)} widened ${showType(raw)}`,
        );
    }),
    { numRuns: 300 },
  );
});

test('normalization: a single-literal field is not absorbed by its base type (its implicit default would go)', () => {
  const lit = rec([['b', T.lit(0n)]]);
  const wide = rec([['b', T.float]]);
  const empty = new ObjectValue(new Map());
  const norm = normalize({ k: 'union', members: [lit, wide] });
  assert.equal(showType(norm), '{ b: 0 } | { b: Float }');
  assert.equal(accepts(empty, norm), true);
  // as values, { b: 0 } is still a subtype of { b: Float } (a value of it always has b = 0)
  assert.equal(isSubtype(lit, wide), true);
  // and a chain of subsumptions keeps a member that accepts {}: { a?: [Float] } <: { b: 0, .. } <: { b: Float, .. } on values
  const chain = normalize({
    k: 'union',
    members: [rec([['b', T.lit(0n)]], true), rec([['a', T.list(T.float), true]]), rec([['b', T.float]], true)],
  });
  assert.equal(accepts(empty, chain), true);
});
