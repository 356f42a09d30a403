// Evaluator semantics: a table of programs and the compact JSON they produce,
// plus runtime errors (message and innermost location) and the EvalOptions hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, evaluate, evaluateSnippet, evaluateToString, parseModule } from './index.js';
import { serializeCompact } from './manifest.js';
import type { Importer } from './index.js';

const run = (code: string): string => serializeCompact(evaluateSnippet('t.jsonnet', code));

const cases: [string, string][] = [
  ['1 + 2 * 3 - 4 / 2', '5'],
  ['7 % 3', '1'],
  ['-7 % 3', '-1'],
  ['"a" + 1', '"a1"'],
  ['1 + "a"', '"1a"'],
  ['[1] + [2, 3]', '[1, 2, 3]'],
  ['"x" + {a: 1}', '"x{\\"a\\": 1}"'],
  ['1 < 2 && "a" < "b" && [1, 2] < [1, 3] && !([2] < [1])', 'true'],
  ['"é" < "z"', 'false'],
  ['1 == 1.0 && [1, {a: 2}] == [1, {a: 2}] && {a: 1, b:: 2} == {a: 1}', 'true'],
  ['5 & 3 | 8 ^ 1', '9'],
  ['1 << 3 >> 1', '4'],
  ['~5', '-6'],
  ['std.length("héllo😀")', '6'],
  ['"héllo😀"[5]', '"😀"'],
  ['"abcdef"[1:4]', '"bcd"'],
  ['[0, 1, 2, 3, 4, 5][::2]', '[0, 2, 4]'],
  ['[0, 1, 2, 3][-2:]', '[2, 3]'],
  ['local x = 1, y = x + 1; [x, y]', '[1, 2]'],
  ['local f(a, b=a + 1) = [a, b]; [f(1), f(1, 5), f(b=3, a=2)]', '[[1, 2], [1, 5], [2, 3]]'],
  ['local fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2); fib(20)', '6765'],
  ['if false then 1', 'null'],
  ['{a: 1, b: self.a + 1}', '{"a": 1, "b": 2}'],
  ['{a: 1, h:: 2, v::: 3}', '{"a": 1, "v": 3}'],
  ['{a:: 1} + {a: 2}', '{ }'],
  ['{a:: 1} + {a::: 2}', '{"a": 2}'],
  ['{a: 1} + {a+: 2}', '{"a": 3}'],
  ['{a: {b: 1}} + {a+: {c: 2}}', '{"a": {"b": 1, "c": 2}}'],
  ['{x+: 1}', '{"x": 1}'],
  ['local base = {a: 1, b: self.a * 10}; base + {a: 5}', '{"a": 5, "b": 50}'],
  ['{a: 1} + {b: super.a + 1} + {c: super.b + 1}', '{"a": 1, "b": 2, "c": 3}'],
  ['{a: 1} + {b: "a" in super, c: "z" in super}', '{"a": 1, "b": true, "c": false}'],
  ['{ x: { y: $.z }, z: 5 }', '{"x": {"y": 5}, "z": 5}'],
  ['local o = {local l = self.v * 2, v: 3, r: l}; o', '{"r": 6, "v": 3}'],
  ['{[k]: k + "!" for k in ["b", "a"]}', '{"a": "a!", "b": "b!"}'],
  ['{[if k == "a" then null else k]: 1 for k in ["a", "b"]}', '{"b": 1}'],
  ['[x * y for x in [1, 2] for y in [10, 20] if x * y != 20]', '[10, 40]'],
  ['{f(x):: x * 2, r: self.f(4)}', '{"r": 8}'],
  ['local f = function(x) function(y) x + y; f(1)(2)', '3'],
  ['std.foldl(function(a, b) a + b, std.range(1, 1000), 0)', '500500'],
  ['local f(n, acc) = if n == 0 then acc else f(n - 1, acc + n) tailstrict; f(20000, 0)', '200010000'],
  ['local x = error "never"; 1', '1'],
  ['[error "lazy"][0:0]', '[ ]'],
  ['{a: error "lazy", b: 1}.b', '1'],
  ['assert 1 == 1 : "no"; "ok"', '"ok"'],
  [
    'std.type(null) + std.type(true) + std.type(1) + std.type("") + std.type([]) + std.type({}) + std.type(function() 1)',
    '"nullbooleannumberstringarrayobjectfunction"',
  ],
  ['0.1 + 0.2', '0.30000000000000004'],
  ['1e20', '100000000000000000000'],
  ['1 / 3', '0.33333333333333331'],
  ['-0.0000123', '-1.2300000000000001e-05'],
  ['"\\u00e9\\ud83d\\ude00\\t"', '"é😀\\t"'],
  ['@"a\\b""c"', '"a\\\\b\\"c"'],
  ['|||\n  line1\n    line2\n|||', '"line1\\n  line2\\n"'],
  ['|||-\n  x\n|||', '"x"'],
  ['std.objectFields({b: 1, a: 2, c:: 3})', '["a", "b"]'],
  ['std.objectFieldsAll({b: 1, c:: 3})', '["b", "c"]'],
  ['std.sort([3, 1, 2], keyF=function(x) -x)', '[3, 2, 1]'],
  ['std.thisFile', '"t.jsonnet"'],
];

test('evaluates programs', () => {
  for (const [code, want] of cases) assert.equal(run(code), want, code);
});

const errors: [string, string, string][] = [
  ['error "boom"', 'boom', 't.jsonnet:1:1-13'],
  ['[][0]', 'Index 0 out of bounds, not within [0, 0)', 't.jsonnet:1:1-6'],
  ['{}.x', 'Field does not exist: x', 't.jsonnet:1:1-5'],
  ['[] + {}', 'Unexpected type object, expected array', 't.jsonnet:1:1-8'],
  ['{} + 1', 'Unexpected type number, expected object', 't.jsonnet:1:1-7'],
  ['1 / 0', 'Division by zero.', 't.jsonnet:1:1-6'],
  ['1e308 * 10', 'Overflow', 't.jsonnet:1:1-11'],
  ['std.sqrt(-1)', 'Not a number', 't.jsonnet:1:1-13'],
  ['if 1 then 2', 'Unexpected type number, expected boolean', 't.jsonnet:1:1-12'],
  ['local f(x) = x; f(1, 2)', 'function expected 1 positional argument(s), but got 2', 't.jsonnet:1:17-24'],
  ['local f(x) = x; f(y=1)', 'function has no parameter y', 't.jsonnet:1:17-23'],
  ['local f(x) = x; f()', 'Missing argument: x', 't.jsonnet:1:17-20'],
  ['local f(x) = x; f(1, x=2)', 'Argument x already provided', 't.jsonnet:1:17-26'],
  ['(function(x) x) == (function(x) x)', 'Cannot test equality of functions', 't.jsonnet:1:1-35'],
  ['{a: 1, [null]: 2, ["a"]: 3}', 'Duplicate field name: "a"', 't.jsonnet:1:1-28'],
  ['{[1]: 1}', 'Field name must be string, got number', 't.jsonnet:1:1-9'],
  ['{assert self.a > 1 : "too small", a: 1}.a', 'too small', 't.jsonnet:1:2-33'],
  ['{a: 1} + {b: super.c}', 'Field does not exist: c', 't.jsonnet:1:14-19'],
  ['{b: super.c}.b', 'Attempt to use super when there is no super class.', 't.jsonnet:1:5-10'],
  ['1 << -1', 'Shift by negative exponent.', 't.jsonnet:1:1-8'],
  ['assert false; 1', 'Assertion failed', 't.jsonnet:1:1-16'],
  ['{f: function() 1}', "couldn't manifest function as JSON", 'Field "f"'],
  ['local f(x) = f(x + 1); f(0)', 'max stack frames exceeded.', 't.jsonnet:1:14-22'],
  ['std.extVar("nope")', 'Undefined external variable: nope', 't.jsonnet:1:1-19'],
];

test('reports runtime errors with go-jsonnet wording and location', () => {
  for (const [code, msg, where] of errors) {
    assert.throws(
      () => evaluateSnippet('t.jsonnet', code),
      (e: unknown) => {
        assert.ok(e instanceof JsonnetError, code);
        assert.equal(e.kind, 'runtime', code);
        assert.equal(e.message, msg, code);
        assert.match(e.format(), new RegExp(`^\\t${where.replace(/[()[\]]/g, '\\$&')}\\t`, 'm'), code);
        return true;
      },
      code,
    );
  }
});

test('formats a runtime trace like the jsonnet command', () => {
  try {
    evaluateSnippet('m.jsonnet', 'local o = { foo(x): error x }; o.foo("xxx")');
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof JsonnetError);
    assert.equal(
      e.format(),
      'RUNTIME ERROR: xxx\n\tm.jsonnet:1:21-28\tfunction <anonymous>\n\tm.jsonnet:1:32-44\t$\n\tDuring evaluation\t\n',
    );
  }
});

test('ext vars, TLAs, natives, trace sink', () => {
  const traces: string[] = [];
  const m = parseModule(
    new SourceFile(
      'main.jsonnet',
      'function(a, b=2) [a, b, std.extVar("s"), std.extVar("c"), std.native("up")("x"), std.trace("hi", 1)]',
    ),
  );
  const out = evaluate(m, {
    extVars: { s: { kind: 'string', value: 'str' }, c: { kind: 'code', value: '{k: 1 + 1}' } },
    tlas: { a: { kind: 'code', value: '[1]' }, b: { kind: 'string', value: 'B' } },
    natives: { up: { params: ['s'], fn: ([s]) => String(s).toUpperCase() } },
    trace: (msg) => traces.push(msg),
  });
  assert.deepEqual(out, [[1], 'B', 'str', { k: 2 }, 'X', 1]);
  assert.deepEqual(traces, ['TRACE: main.jsonnet:1 hi']);
});

test('imports are resolved through the importer and evaluated once', () => {
  const files: Record<string, string> = {
    'lib/a.libsonnet': '{ v: 1, b: import "b.libsonnet" }',
    'lib/b.libsonnet': '{ w: 2 }',
    'lib/t.txt': 'text',
  };
  const calls: string[] = [];
  const importer: Importer = {
    load(from, path, kind) {
      calls.push(`${kind}:${path}`);
      const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
      const foundAt = dir + path;
      const text = files[foundAt];
      if (text === undefined) throw new Error(`couldn't open import "${path}": not found`);
      return { foundAt, contents: new TextEncoder().encode(text) };
    },
  };
  const m = parseModule(
    new SourceFile(
      'main.jsonnet',
      '[(import "lib/a.libsonnet").b.w, (import "lib/a.libsonnet").v, importstr "lib/t.txt", importbin "lib/t.txt"]',
    ),
  );
  assert.deepEqual(
    m.imports.map((i) => `${i.kind}:${i.path}`),
    ['import:lib/a.libsonnet', 'import:lib/a.libsonnet', 'importstr:lib/t.txt', 'importbin:lib/t.txt'],
  );
  assert.deepEqual(evaluate(m, { importer }), [2, 1, 'text', [116, 101, 120, 116]]);
  assert.throws(
    () => evaluateSnippet('x.jsonnet', 'import "missing.jsonnet"', { importer }),
    /couldn't open import "missing.jsonnet"/,
  );
});

test('output modes', () => {
  const m = (code: string) => parseModule(new SourceFile('o.jsonnet', code));
  assert.equal(
    evaluateToString(m('{a: [1, {}], b: []}')),
    '{\n   "a": [\n      1,\n      { }\n   ],\n   "b": [ ]\n}\n',
  );
  assert.equal(evaluateToString(m('"s"'), { mode: 'string' }), 's\n');
  assert.deepEqual(evaluateToString(m('{"x.json": {a: 1}, "y.json": 2}'), { mode: 'multi' }), {
    'x.json': '{\n   "a": 1\n}\n',
    'y.json': '2\n',
  });
  assert.equal(evaluateToString(m('[1, "a"]'), { mode: 'yamlStream' }), '---\n1\n---\n"a"\n...\n');
  assert.throws(() => evaluateToString(m('1'), { mode: 'string' }), /expected string result, got: number/);
});

test('shouldStop cancels a long evaluation', () => {
  assert.throws(
    () =>
      evaluateSnippet('c.jsonnet', 'std.foldl(function(a, b) a + b, std.range(0, 1000000), 0)', {
        shouldStop: () => true,
      }),
    /evaluation cancelled/,
  );
});

test('maxStack is configurable', () => {
  const code = 'local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(300)';
  assert.equal(evaluateSnippet('s.jsonnet', code), 300);
  assert.throws(() => evaluateSnippet('s.jsonnet', code, { maxStack: 100 }), /max stack frames exceeded/);
});

test('memoryLimit: builtins whose size is known up front are refused before allocating, naming the limit', () => {
  const memoryLimit = { bytes: 64 * 1024 * 1024, name: 'the worker heap limit (64 MiB)' };
  const refused: [string, RegExp][] = [
    ['std.range(0, 1e8)', /std\.range\(0, 100000000\) \(100000001 elements\) needs at least 4\.5 GiB/],
    ['std.makeArray(1e9, function(i) i)', /std\.makeArray\(1000000000, \.\.\.\) needs at least 93\.1 GiB/],
    ["std.repeat('x', 1e9)", /std\.repeat of a 1-character string 1000000000 times needs at least 954 MiB/],
    ['std.repeat([1, 2], 1e8)', /std\.repeat of a 2-element array 100000000 times needs at least 1\.5 GiB/],
    ["local s = std.repeat('x', 1e6); std.join('', std.makeArray(100, function(i) s))", /std\.join of 100 strings/],
  ];
  for (const [code, want] of refused) {
    assert.throws(
      () => evaluateSnippet('m.jsonnet', code, { memoryLimit }),
      (err: Error) => want.test(err.message) && /more than the worker heap limit \(64 MiB\)/.test(err.message),
      code,
    );
  }
  // What fits is evaluated as usual, and without a limit nothing is checked.
  assert.equal(evaluateSnippet('m.jsonnet', 'std.length(std.range(1, 100000))', { memoryLimit }), 100000);
  assert.equal(evaluateSnippet('m.jsonnet', "std.length(std.repeat('ab', 1000))", { memoryLimit }), 2000);
  assert.equal(evaluateSnippet('m.jsonnet', 'std.length(std.makeArray(1e5, function(i) i))'), 100000);
});
