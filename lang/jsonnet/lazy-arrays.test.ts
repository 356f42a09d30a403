// Lazy concatenation and slice views (value.ts ArrayValue) give the same arrays
// as eager copying: a property test over random sequences of `+` and slices
// against plain JS arrays, and Jsonnet programs checked against Debian's
// jsonnet (the oracle) when it is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { SourceFile } from '../common/source.js';
import { evaluateToString, parseModule } from './index.js';
import { ArrayValue, Thunk } from './value.js';

const arrayOf = (xs: number[]) => new ArrayValue(xs.map((x) => Thunk.ready(x)));
const valuesOf = (a: ArrayValue) => a.elems.map((t) => t.value);

type Op =
  | { kind: 'concat'; left: number; right: number }
  | { kind: 'slice'; of: number; from: number; to: number; step: number };

test('random concatenations and slices match eager arrays', () => {
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('concat' as const), left: fc.nat(), right: fc.nat() }),
    fc.record({
      kind: fc.constant('slice' as const),
      of: fc.nat(),
      from: fc.nat(80),
      to: fc.nat(80),
      step: fc.integer({ min: 1, max: 4 }),
    }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.integer(), { maxLength: 40 }), { minLength: 1, maxLength: 4 }),
      fc.array(op, { maxLength: 30 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (seeds, ops, probes) => {
        const lazy = seeds.map(arrayOf);
        const eager = seeds.map((s) => s.slice());
        for (const o of ops) {
          if (o.kind === 'concat') {
            const l = o.left % lazy.length;
            const r = o.right % lazy.length;
            lazy.push(ArrayValue.concat(lazy[l]!, lazy[r]!));
            eager.push(eager[l]!.concat(eager[r]!));
          } else {
            const i = o.of % lazy.length;
            const len = eager[i]!.length;
            const to = Math.min(o.to, len);
            const from = Math.min(o.from, len);
            lazy.push(ArrayValue.slice(lazy[i]!, from, to, o.step));
            const want: number[] = [];
            for (let k = from; k < to; k += o.step) want.push(eager[i]![k]!);
            eager.push(want);
          }
          // Reading some elements without flattening must agree too.
          const last = lazy[lazy.length - 1]!;
          const model = eager[eager.length - 1]!;
          assert.equal(last.length, model.length);
          for (const p of probes)
            if (model.length > 0) assert.equal(last.at(p % model.length).value, model[p % model.length]);
        }
        lazy.forEach((a, i) => assert.deepEqual(valuesOf(a), eager[i]));
      },
    ),
    { numRuns: 300 },
  );
});

test('a 100,000-step foldl concatenation flattens without deep recursion', () => {
  const code =
    'local a = std.foldl(function(acc, x) acc + [x], std.range(1, 100000), []); [std.length(a), a[0], a[99999], std.sum(a)]';
  assert.equal(
    evaluateToString(parseModule(new SourceFile('t.jsonnet', code))),
    '[\n   100000,\n   1,\n   100000,\n   5000050000\n]\n',
  );
});

const programs: [string, string][] = [
  ['foldl append', 'std.foldl(function(acc, x) acc + [x], std.range(1, 100), [])'],
  ['prepend', 'std.foldl(function(acc, x) [x] + acc, std.range(1, 60), [])'],
  ['slice of slice', 'local a = std.range(0, 99); [a[3:90:2][5:30:3], a[10:][10:][10:], a[::7][1:4]]'],
  ['slice of concat', 'local a = std.range(0, 40) + std.range(100, 140); [a[30:50], a[::5], std.length(a[3:])]'],
  ['recursive tail', 'local s(a) = if std.length(a) == 0 then 0 else a[0] + s(a[1:]); s(std.range(1, 100))'],
  [
    'index lazy',
    'local a = std.foldl(function(acc, x) acc + [x * x], std.range(0, 99), []); [a[0], a[50], a[99], a[10:12]]',
  ],
  [
    'equality and sort',
    'local a = std.range(0, 50) + std.range(0, 50); [a == a[0:102], std.sort(a)[::10], std.uniq(std.sort(a))[40:]]',
  ],
  ['empty sides', '[[] + std.range(1, 40), std.range(1, 40) + [], std.range(1, 40)[50:], std.range(1, 40)[40:41]]'],
  ['errors stay lazy', 'local a = [error "never"] + std.range(1, 40); [std.length(a), a[1:][3]]'],
  [
    'strings',
    '["hello world"[3:], "hello world"[::2], "héllo wörld"[1:8:3], "a\\ud83d\\ude00b\\ud83d\\ude00c"[1:4], "abc"[5:]]',
  ],
];

test('programs with lazy arrays print what Debian jsonnet prints', async (t) => {
  const oracle = spawnSync('jsonnet', ['--version'], { encoding: 'utf8' });
  for (const [name, code] of programs) {
    await t.test(name, (tt) => {
      const ours = evaluateToString(parseModule(new SourceFile('t.jsonnet', code)));
      if (oracle.status !== 0) return tt.skip('Debian jsonnet is not installed');
      const theirs = spawnSync('jsonnet', ['-e', code], { encoding: 'utf8' });
      assert.equal(theirs.status, 0, theirs.stderr);
      assert.equal(ours, theirs.stdout);
    });
  }
});
