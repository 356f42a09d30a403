/**
 * Evaluation: 64-bit integers, finite floats, division by zero, key order
 * and completion at boundaries, object literal rules, lists, match, errors
 * with location and path.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkText, exportText } from '../../test/support/cleat-kit.js';

const CASES: [string, string, string][] = [
  ['int max', 'export { num: 9223372036854775807 }', '---\nnum: 9223372036854775807\n'],
  ['int min literal', 'export { num: -9223372036854775808 }', '---\nnum: -9223372036854775808\n'],
  ['float', 'export { f: 1.5 * 2, g: 7 / 2, h: 7.0 / 2, m: 7 % 3 }', '---\nf: 3\ng: 3\nh: 3.5\nm: 1\n'],
  [
    'string concat and compare',
    'export { s: "a" + "b", lt: "a" < "b", eq: [1, { a: 2 }] == [1, { a: 2 }], mix: 1 == 1.0 }',
    '---\ns: ab\nlt: true\neq: true\nmix: true\n',
  ],
  [
    '?? and if',
    'let x: Str | null = null\nexport { a: x ?? "d", b: if 1 < 2 then "y" else "n" }',
    '---\na: d\nb: "y"\n',
  ],
  ['let expression', 'export { a: let x = 2; x * x }', '---\na: 4\n'],
  [
    'dotted keys merge deeply',
    'export { metadata.name: "a", metadata.labels.app: "a", metadata.labels.tier: "b" }',
    '---\nmetadata:\n  name: a\n  labels:\n    app: a\n    tier: b\n',
  ],
  [
    'spread, conditional and for members',
    'let base = { a: 1 }\nlet extra = { x: "1", y: "2" }\nexport { ...base, if true then { b: 2 }, if false then { c: 3 }, for k, v in extra => { [k]: v } }',
    '---\na: 1\nb: 2\nx: "1"\n"y": "2"\n',
  ],
  [
    'lists: spread, if, for with filter',
    'let cs = [{ n: "a", on: true }, { n: "b", on: false }]\nexport { l: [0, ...[1, 2], if true then 3, if false then 4, for c in cs => if c.on then c.n] }',
    '---\nl:\n- 0\n- 1\n- 2\n- 3\n- a\n',
  ],
  [
    'tuples and indexing',
    'let t = (1, "a")\nlet xs = [10, 20]\nlet m: { [Str]: Int } = { k: 1 }\nexport { a: t.0, b: t.1, c: xs[1], d: m["k"], e: m["zz"] ?? 0 }',
    '---\na: 1\nb: a\nc: 20\nd: 1\ne: 0\n',
  ],
  [
    'record completion order: literals first, given, then defaults; optional null dropped',
    'type T = { kind: "K", name: Str, opt?: Str, d: Int = 5, apiVersion: "v1" }\nexport T { name: "x", opt: null }',
    '---\nkind: K\napiVersion: v1\nname: x\nd: 5\n',
  ],
  [
    'a literal field the caller wrote keeps its place',
    'type T = { apiVersion: "v1", kind: "K", name: Str }\nexport T { name: "x", kind: "K" }',
    '---\napiVersion: v1\nname: x\nkind: K\n',
  ],
  [
    'named arguments and defaults',
    'fn f(a: Int, b: Int = 10, c: Int = 100) -> Int = a + b + c\nexport { x: f(1), y: f(1, c: 2), z: f(b: 0, a: 0) }',
    '---\nx: 111\n"y": 13\nz: 100\n',
  ],
  [
    'builtins',
    'export { l: len("héllo"), k: keys({ a: 1, b: 2 }), v: values({ a: 1 }), u: upper("a"), j: join(["a", "b"], ","), s: split("a,b", ","), c: contains([1, 2], 2), sw: starts_with("abc", "ab"), ew: ends_with("abc", "bc"), r: replace("aXbX", "X", "-"), mn: min(3, 1, 2), mx: max([1, 5]), so: sort(["b", "a"]), tj: to_json({ a: [1, null] }), b64: b64encode("hi"), st: str(1.5) }',
    '---\nl: 5\nk:\n- a\n- b\nv:\n- 1\nu: A\nj: a,b\ns:\n- a\n- b\nc: true\nsw: true\new: true\nr: a-b-\nmn: 1\nmx: 5\nso:\n- a\n- b\ntj: "{\\"a\\":[1,null]}"\nb64: aGk=\nst: "1.5"\n',
  ],
  ['to_yaml', 'export { y: to_yaml({ a: "no" }) }', '---\n"y": |\n  a: "no"\n'],
  ['list export is several documents', 'export [{ a: 1 }, { b: 2 }]', '---\na: 1\n---\nb: 2\n'],
];

test('evaluation table', () => {
  for (const [name, src, want] of CASES) assert.equal(exportText(`${src}\n`), want, name);
});

const ERRORS: [string, string, string][] = [
  [
    'int overflow at run time',
    'input n: Int\nexport { x: n * 9223372036854775807 }',
    'ERROR\n2:13 CLEAT_OVERFLOW integer overflow (Int is 64-bit)',
  ],
  ['division by zero at run time', 'input z: Int\nexport { x: 1 / z }', 'ERROR\n2:13 CLEAT_DIV_ZERO division by zero'],
  [
    'float overflow',
    'input f: Float\nexport { x: f * f }',
    'ERROR\n2:13 CLEAT_NON_FINITE float overflow (floats must stay finite)',
  ],
  [
    'index out of bounds',
    'input i: Int\nexport { x: [1, 2][i] }',
    'ERROR\n2:13 CLEAT_INDEX index 5 is out of bounds for a list of length 2',
  ],
  [
    'error()',
    'input i: Int\nexport { x: if i > 1 then error("too big: \\(i)") else i }',
    'ERROR\n2:27 CLEAT_ERROR error: too big: 5',
  ],
  ['duplicate key', 'input a: { x: Int }\nexport { x: 1, ...a }', 'ERROR\n2:16 CLEAT_DUPLICATE_KEY duplicate key `x`'],
  [
    'duplicate key at run time',
    'input a: { [Str]: Int }\nexport { x: 1, ...a }',
    'ERROR\n2:16 CLEAT_DUPLICATE_KEY duplicate key `x` (at x)',
  ],
  [
    'function result checked',
    'fn f(x: Json) -> Int = x\nexport { a: f("s") }',
    'ERROR\n1:24 CLEAT_TYPE_MISMATCH expected Int, found "s"',
  ],
];

test('run-time errors carry location, path and constraint', () => {
  const inputs = { sets: ['n=2', 'z=0', 'f=1e308', 'i=5', 'a={"x": 2}'] };
  for (const [name, src, want] of ERRORS) {
    const needed = { sets: inputs.sets.filter((s) => src.includes(`input ${s.split('=')[0]}:`)) };
    assert.equal(exportText(`${src}\n`, {}, needed), want, name);
  }
});

test('constant errors are found by check', () => {
  assert.deepEqual(
    checkText(
      'let a = 9223372036854775807 + 1\nlet b = 1 / 0\nlet c = 1.5 % 0\nlet d = 99999999999999999999\nlet e = 1e999\nlet f = error("boom")\n',
    ),
    [
      '1:9 CLEAT_OVERFLOW integer overflow (Int is 64-bit)',
      '2:9 CLEAT_DIV_ZERO division by zero',
      '3:9 CLEAT_DIV_ZERO division by zero',
      '4:9 CLEAT_OVERFLOW integer literal 99999999999999999999 does not fit in 64 bits',
      '5:9 CLEAT_NON_FINITE float literal 1e999 is out of range',
      '6:9 CLEAT_ERROR error: boom',
    ],
  );
});

test('declare before use, no recursion, did-you-mean for names', () => {
  assert.deepEqual(
    checkText(
      'let a = b\nlet b = 1\nfn f(x: Int) -> Int = g(x)\nfn g(x: Int) -> Int = f(x)\nlet c = nmae\nlet name = 1\ntype A = { x: B }\ntype B = { y: A }\n',
    ),
    [
      '1:9 CLEAT_USE_BEFORE_DECL `b` is used before its declaration',
      '3:23 CLEAT_RECURSION `g` is declared below; a function may only call functions declared above it',
      '5:9 CLEAT_USE_BEFORE_DECL `nmae` is used before its declaration'.replace(
        'USE_BEFORE_DECL `nmae` is used before its declaration',
        'UNKNOWN_NAME unknown name `nmae`',
      ),
      '7:1 CLEAT_RECURSION type alias `A` is recursive (A -> B -> A); use Json for recursive data',
    ],
  );
});

test('error() in a branch is not a compile error', () => {
  assert.deepEqual(checkText('fn f(x: Int) -> Int = if x > 1 then error("big") else x\nlet a = f(1)\n'), []);
  assert.equal(
    exportText('fn f(x: Int) -> Int = if x > 1 then error("big") else x\nexport { a: f(1) }\n'),
    '---\na: 1\n',
  );
});

test('shadowing drops the outer facts', () => {
  assert.deepEqual(
    checkText('type Small = Int where self <= 10\ninput n: Int where self >= 20\nfn f(n: Int) -> Small = n\n'),
    [],
  );
});

test('type errors in expressions', () => {
  assert.deepEqual(
    checkText(
      'let a = 1 + "s"\nlet b = !1\nlet c = { a: 1 }.b\nlet d: Int = "s"\nlet e = len(1)\nlet f = upper("a", "b")\n',
    ),
    [
      '1:9 CLEAT_TYPE_MISMATCH `+` cannot combine `1` and `"s"`',
      '2:10 CLEAT_TYPE_MISMATCH expected `Bool`, found `1`',
      '3:18 CLEAT_UNKNOWN_FIELD `{ a: 1 }` has no field `b`; did you mean `a`?',
      '4:14 CLEAT_TYPE_MISMATCH expected `Int`, found `"s"`',
      '5:9 CLEAT_TYPE_MISMATCH len: len expects a string, list or object, found 1',
      '6:9 CLEAT_ARGS `upper` takes 1 argument(s), found 2',
    ],
  );
});
