// The speed-ups keep semantics: shared field tables of static literals, object
// locals bound once per object, super caches, lazy field caches and the one-pass
// text manifestation. Each row checks a program whose result (or error) would
// change if one of those caches were shared too widely or skipped an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, evaluate, evaluateToString, parseModule } from './index.js';
import { serializeJson } from './manifest.js';

const mod = (code: string) => parseModule(new SourceFile('t.jsonnet', code));

const sameResult: [string, string][] = [
  // One literal, many instances: each instance keeps its own closure and self.
  ['local mk(x) = { v: x, w: self.v * 2 }; [mk(1), mk(2), mk(3) + { v: 10 }]', 'instances'],
  // Object locals see the right self in every layer and instance.
  ['local mk(n) = { local me = self, name: n, tag: me.name + "!" }; [mk("a"), mk("b") + { name: "c" }]', 'locals'],
  // super chains: every layer reads the layer below, values differ per self.
  [
    'local m(i) = { d: super.d + 1, s: super.s + self.d }; local c = std.foldl(function(a, i) a + m(i), std.range(1, 5), { d: 0, s: 0 }); [c, c + { d: 100 }]',
    'super',
  ],
  // +: merges through a cached lower layer.
  ['local a = { x: { p: 1 } }; local b = a + { x+: { q: 2 } }; [b, b + { x+: { r: 3 } }, a]', 'plus'],
  // Computed names and duplicates still take the general path.
  ['[{ [k]: k for k in ["b", "a"] }, { ["x" + i]: i for i in [1, 2] }, { a: 1, [if false then "z"]: 2 }]', 'computed'],
  // Hidden / forced-visible flags come from the shared table of each literal.
  ['local h = { a:: 1, b: 2 }; [h, h + { a::: 3 }, std.objectFields(h), std.objectFieldsAll(h)]', 'visibility'],
  // More fields than the small field cache holds: it turns into a Map midway (also per super layer).
  [
    'local o = { [std.char(97 + i)]: i * 2 for i in std.range(0, 19) }; local p = o + { [std.char(97 + i)]: super[std.char(97 + i)] + 1 for i in std.range(0, 19) }; [o, p, [p[std.char(97 + i)] for i in std.range(0, 19)]]',
    'many fields',
  ],
  [
    'local o = { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10, k: self.a + self.j }; [o.k, o, o.a]',
    'static many',
  ],
  // Layered objects: visibility asked before and after the manifest's sorted names.
  [
    'local o = { b: 1, a:: 2 } + { c: 3 } + { a+: 1 }; [std.objectHas(o, "a"), o, std.objectFields(o), std.length(o), o + { a::: 0 }]',
    'layered visibility',
  ],
  // Objects of one stack of literal tables share their sorted names; visibility comes from the
  // whole stack, and another stack (other order, one more layer) has its own names.
  [
    'local a = { x: 1, y:: 2, b: 0 }; local b = { y: 3, z: 4, a: 0 }; [a + b, a + b, b + a, a + b + { x:: 0 }, a + b + { y::: 5 }, (a + b).y]',
    'layer stacks',
  ],
  // More stacks under one top table than it remembers: the rest sort their own names.
  [
    'local top = { top: 1, v: 2 }; [' +
      Array.from({ length: 24 }, (_, i) => `{ k${i}: ${i}, ${i % 2 ? 'h' : 'v'}:: 0, m${i % 3}: 1 } + top`).join(', ') +
      ']',
    'many stacks',
  ],
  // Keys that need escaping, from the per-literal quoted keys.
  ['[{ "a\\"b": 1, "\\u00e9": 2, "\\n": 3 }, { "a\\"b": 4, "\\u00e9": 5, "\\n": 6 }]', 'quoted keys'],
];

test('optimised paths give the oracle-checked results', async (t) => {
  for (const [code, name] of sameResult) {
    await t.test(name, () => {
      const viaTree = serializeJson(evaluate(mod(code))) + '\n';
      assert.equal(evaluateToString(mod(code)), viaTree);
    });
  }
});

const expected: [string, string][] = [
  ['local mk(x) = { v: x, w: self.v * 2 }; [mk(1).w, mk(2).w]', '[2, 4]'],
  ['local m(i) = { d: super.d + 1 }; (std.foldl(function(a, i) a + m(i), std.range(1, 50), { d: 0 })).d', '50'],
  ['local o = { local unused = error "never", a: 1 }; o.a', '1'],
];

test('values', async (t) => {
  for (const [code, want] of expected) {
    await t.test(code, () => assert.deepEqual(JSON.parse(evaluateToString(mod(code)) as string), JSON.parse(want)));
  }
});

const errors: [string, RegExp][] = [
  // A failing super field fails every time it is read (errors are not cached).
  ['local o = { a: error "boom" } + { a: super.a, b: super.a }; [o.b, o.a]', /boom/],
  // A failing object local fails each field that reads it.
  ['local o = { local l = error "bad local", a: l, b: 1 }; { b: o.b, a: o.a }', /bad local/],
  // Object asserts still run before the first field (shared tables keep asserts).
  ['local mk(x) = { assert x > 0 : "x must be positive", v: x }; [mk(1), mk(-1)]', /x must be positive/],
  // Manifesting a function names the field.
  ['{ f: function() 1 }', /couldn't manifest function as JSON/],
  // Trace positions of manifested fields (per-literal strings) and elements (cached up to an index).
  ['local mk(x) = { "a\\"b": { v: x } }; [mk(1), mk(error "in field")]', /Field "a\\"b"/],
  ['std.makeArray(5000, function(i) if i == 4999 then error "late" else i)', /Array element 4999/],
  ['std.makeArray(10, function(i) if i == 7 then error "early" else i)', /Array element 7/],
];

test('errors are raised as before', async (t) => {
  for (const [code, want] of errors) {
    await t.test(code, () => {
      assert.throws(
        () => evaluateToString(mod(code)),
        (e: unknown) => e instanceof JsonnetError && want.test(e.format()),
      );
      // The one-pass text manifestation reports the same error as the tree manifestation.
      let treeMsg = '';
      try {
        evaluate(mod(code));
      } catch (e) {
        treeMsg = (e as JsonnetError).format();
      }
      let textMsg = '';
      try {
        evaluateToString(mod(code));
      } catch (e) {
        textMsg = (e as JsonnetError).format();
      }
      assert.equal(textMsg, treeMsg);
    });
  }
});
