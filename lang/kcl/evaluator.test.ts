/**
 * The language, case by case: each program is run as `kcl run main.k` would
 * run it and its printed YAML compared. Written from KCL's documented
 * semantics (union `:` versus override `=`, dotted keys, `+=`, schemas with
 * inheritance, defaults, checks, index signatures, lambdas, comprehensions,
 * interpolation) and the shapes the myks converter writes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateKcl, fromJson, runKcl, toPlain } from './index.js';
import { memoryHost } from './memory-host.js';

function run(src: string, opts: { sortKeys?: boolean; defines?: string[]; format?: 'json' | 'yaml' } = {}): string {
  return runKcl(memoryHost({ '/m/main.k': src }), { paths: ['/m/main.k'], ...opts });
}

const CASES: [string, string, string][] = [
  [
    'scalars and output order',
    'b = 1\na = "x"\nc = True\nd = None\ne = 1.5\nf = 2.0\n',
    'b: 1\na: x\nc: true\nd: null\ne: 1.5\nf: 2.0\n',
  ],
  [
    'private and functions are not printed',
    '_x = 1\ny = _x + 1\nf = lambda a { a }\nschema S:\n    a: int = 1\n',
    'y: 2\n',
  ],
  ['private names may be rebound, the reader sees the last', '_x = 1\n_x = 2\ny = _x\n', 'y: 2\n'],
  ['a name may be read before the line that binds it', 'a = b + 1\nb = 1\n', 'a: 2\nb: 1\n'],
  ['config union merges nested dicts', 'a = {x: {y = 1}, x: {z = 2}}\n', 'a:\n  x:\n    y: 1\n    z: 2\n'],
  ['override replaces', 'a = {x = {y = 1}, x = {z = 2}}\n', 'a:\n  x:\n    z: 2\n'],
  [
    'dotted keys merge into the enclosing value',
    'a = {b.c.d = 1, b.c.e = 2, b.f = 3}\n',
    'a:\n  b:\n    c:\n      d: 1\n      e: 2\n    f: 3\n',
  ],
  ['+= appends to a list', 'schema S:\n    l: [int] = [1]\na = S {l += [2, 3]}\n', 'a:\n  l:\n  - 1\n  - 2\n  - 3\n'],
  [
    '| unions dicts (a `:` key merges, an `=` key replaces), right scalars win',
    'a = {x = 1, y = {z = 1}, v = {p = 1}} | {x = 2, y: {w = 2}, v = {q = 2}}\n',
    'a:\n  x: 2\n  y:\n    z: 1\n    w: 2\n  v:\n    q: 2\n',
  ],
  [
    'if inside a config',
    'e = "prod"\na = {\n    name = "x"\n    if e == "prod":\n        replicas = 3\n        tier = "p"\n    elif e == "dev":\n        replicas = 1\n    else:\n        replicas = 0\n}\n',
    'e: prod\na:\n  name: x\n  replicas: 3\n  tier: p\n',
  ],
  ['if on one line in a config', 'a = {if True: x = 1}\n', 'a:\n  x: 1\n'],
  ['if in a list', 'a = [1, if False: 2, 3]\nb = [\n    1\n    if True: 2\n]\n', 'a:\n- 1\n- 3\nb:\n- 1\n- 2\n'],
  [
    'list and dict comprehensions',
    'a = [x * x for x in range(4) if x % 2 == 1]\nb = {k = v + 1 for k, v in {p = 1, q = 2}}\nc = [i for i, _ in ["a", "b"]]\nd = [x + y for x in [1, 2] for y in [10]]\n',
    'a:\n- 1\n- 9\nb:\n  p: 2\n  q: 3\nc:\n- 0\n- 1\nd:\n- 11\n- 12\n',
  ],
  [
    'lambdas with defaults and closures',
    '_n = 10\nadd = lambda a: int, b: int = 1 -> int { a + b + _n }\nx = add(1)\ny = add(1, b = 5)\n',
    'x: 12\ny: 16\n',
  ],
  [
    'lambda body with statements',
    'f = lambda x {\n    y = x * 2\n    if y > 4:\n        "big"\n    else:\n        "small"\n}\na = f(1)\nb = f(3)\n',
    'a: small\nb: big\n',
  ],
  ['if expressions', 'a = 1 if True else 2\nb = "x" if 1 > 2 else "y"\n', 'a: 1\nb: y\n'],
  [
    'string interpolation and methods',
    '_h = "web"\na = "https://${_h}.${_h.upper()}:${8080 + 1}"\nb = "a,b".split(",")\nc = "-".join(["x", "y"])\nd = "  t ".strip()\ne = "Abc".lower().startswith("ab")\n',
    'a: https://web.WEB:8081\nb:\n- a\n- b\nc: x-y\nd: t\ne: true\n',
  ],
  [
    'triple-quoted strings keep their lines',
    'a = """\\\nline1\n  line2\n"""\nb = """no newline"""\n',
    'a: |\n  line1\n    line2\nb: no newline\n',
  ],
  ['escapes and raw strings', 'a = "t\\tq\\"\\${x}"\nb = r"\\d+"\n', 'a: "t\\tq\\"${x}"\nb: \\d+\n'],
  [
    'builtins',
    'a = len([1, 2])\nb = str(12)\nc = int("7") + int(2.9)\nd = float(1)\ne = sorted([3, 1, 2])\nf = typeof({})\ng = isunique([1, 2, 1])\nh = any_true([False, True])\ni = all_true([])\nj = max(1, 5, 3)\nk = sum([1, 2, 3])\n',
    "a: 2\nb: '12'\nc: 9\nd: 1.0\ne:\n- 1\n- 2\n- 3\nf: dict\ng: false\nh: true\ni: true\nj: 5\nk: 6\n",
  ],
  [
    'quantifiers',
    'a = all x in [1, 2] { x > 0 }\nb = any x in [1, 2] { x > 1 }\nc = filter x in [1, 2, 3] { x != 2 }\nd = map x in [1, 2] { x * 10 }\n',
    'a: true\nb: true\nc:\n- 1\n- 3\nd:\n- 10\n- 20\n',
  ],
  [
    'membership and comparisons',
    'a = "x" in {x = 1}\nb = 2 not in [1]\nc = 1 < 2 < 3\nd = [1, 2] == [1, 2]\ne = None is None\n',
    'a: true\nb: true\nc: true\nd: true\ne: true\n',
  ],
  [
    'arithmetic',
    'a = 7 // 2\nb = 7 / 2\nc = -7 % 3\nd = 2 ** 10\ne = 1 + 0.5\n',
    'a: 3\nb: 3.5\nc: 2\nd: 1024\ne: 1.5\n',
  ],
  ['unpacking', 'a = {**{x = 1}, y = 2}\nb = [*[1, 2], 3]\n', 'a:\n  x: 1\n  y: 2\nb:\n- 1\n- 2\n- 3\n'],
  [
    'slices and indexes',
    'a = [1, 2, 3][1:]\nb = "hello"[-1]\nc = [1, 2, 3][::-1]\nd = {x = 1}["x"]\n',
    'a:\n- 2\n- 3\nb: o\nc:\n- 3\n- 2\n- 1\nd: 1\n',
  ],
  [
    'schema defaults, derived defaults and inheritance',
    'schema Base:\n    name: str\n    namespace: str = name\nschema Child(Base):\n    replicas: int = 1\n    namespace: str = "ns-" + name\na = Child {name = "web"}\n',
    'a:\n  name: web\n  namespace: ns-web\n  replicas: 1\n',
  ],
  [
    'a derived default follows an override of what it reads',
    'schema S:\n    a: int = 1\n    b: int = a * 2\nx = S {}\ny = x {a = 5}\n',
    'x:\n  a: 1\n  b: 2\ny:\n  a: 5\n  b: 10\n',
  ],
  [
    'optional attributes without a value are not printed',
    'schema S:\n    a?: str\n    b?: int = None\ns = S {}\n',
    's:\n  b: null\n',
  ],
  [
    'nested schema attributes are instantiated from dicts',
    'schema R:\n    path: str = "/"\nschema C:\n    host: str\n    port: int = 5001\n    routes: [R] = []\nschema A:\n    clients: [C] = []\na = A {clients = [{host = "h", routes = [{}]}]}\n',
    'a:\n  clients:\n  - host: h\n    port: 5001\n    routes:\n    - path: /\n',
  ],
  [
    'index signatures admit extra keys, typed',
    'schema S:\n    a: int = 1\n    [...str]: any\nschema T:\n    [name: str]: S\ns = S {b = "x"}\nt = T {one = {a = 2}}\n',
    's:\n  a: 1\n  b: x\nt:\n  one:\n    a: 2\n',
  ],
  ['float attributes take ints', 'schema S:\n    f: float = 1\ns = S {}\n', 's:\n  f: 1.0\n'],
  [
    'literal and union types',
    'schema S:\n    mode: "a" | "b" = "a"\n    v: int | str = "x"\ns = S {mode = "b", v = 2}\n',
    's:\n  mode: b\n  v: 2\n',
  ],
  [
    'unification statements merge into one instance',
    'schema Apps:\n    [name: str]: any\n_a: Apps {x = {p = 1}}\n_a: Apps {x.q = 2, y = 3}\nr = _a\n',
    'r:\n  x:\n    p: 1\n    q: 2\n  y: 3\n',
  ],
  [
    'a value extended with a config',
    '_base = {a = 1, b = {c = 2}}\nx = _base {b.d = 3}\n',
    'x:\n  a: 1\n  b:\n    c: 2\n    d: 3\n',
  ],
  ['top-level if statements', '_e = "dev"\nif _e == "prod":\n    r = 3\nelse:\n    r = 1\n', 'r: 1\n'],
  ['assert passes', 'a = 1\nassert a == 1, "a must be 1"\n', 'a: 1\n'],
  [
    'check blocks pass',
    'schema S:\n    n: int = 1\n    check:\n        n >= 1, "n must be >= 1"\n        n < 10 if n != 5\ns = S {n = 3}\n',
    's:\n  n: 3\n',
  ],
  ['None prints as null, Undefined is dropped', 'a = {x = None, y = Undefined}\n', 'a:\n  x: null\n'],
  ['private keys of dicts are not printed', 'a = {_x = 1, y = 2}\n', 'a:\n  y: 2\n'],
  ['empty collections', 'a = {}\nb = []\nc = [{}, []]\n', 'a: {}\nb: []\nc:\n- {}\n- []\n'],
  ['nested lists', 'a = [[1, 2], [[3]]]\n', 'a:\n- - 1\n  - 2\n- - - 3\n'],
  ['comments and line continuations', '# a comment\na = 1 + \\\n    2  # trailing\n', 'a: 3\n'],
];

for (const [name, src, want] of CASES) test(name, () => assert.equal(run(src), want));

test('--sort-keys sorts every mapping, schema attributes included', () => {
  assert.equal(
    run('schema S:\n    z: int = 1\n    a: int = 2\nb = S {}\na = {y = 1, x = {d = 1, c = 2}}\n', { sortKeys: true }),
    'a:\n  x:\n    c: 2\n    d: 1\n  y: 1\nb:\n  a: 2\n  z: 1\n',
  );
});

test('-D values are read with option()', () => {
  const src =
    'env = option("env", default = "dev")\nreplicas = option("replicas")\nflag = option("flag")\nmissing = option("missing", default = 0)\n';
  assert.equal(
    run(src, { defines: ['env=prod', 'replicas=3', 'flag=true'] }),
    'env: prod\nreplicas: 3\nflag: true\nmissing: 0\n',
  );
});

test('JSON output is indented by four spaces', () => {
  assert.equal(
    run('a = {b = [1, "x"], c = {}}\nd = 1.0\n', { format: 'json' }),
    '{\n    "a": {\n        "b": [\n            1,\n            "x"\n        ],\n        "c": {}\n    },\n    "d": 1.0\n}\n',
  );
});

test('system modules: regex (RE2), math, json, yaml, base64', () => {
  const src = [
    'import regex',
    'import math',
    'import json',
    'import yaml',
    'import base64',
    'a = regex.match("v1.2.3", r"v\\d+")',
    'b = regex.match("xv1", r"v\\d+")',
    'c = regex.replace("a-b-c", "-", "_")',
    'd = regex.findall("a1b22", r"\\d+")',
    'e = math.sqrt(16)',
    'f = math.floor(2.7)',
    'g = json.encode({x = [1, "y"]})',
    'h = yaml.encode({x = 1})',
    'i = base64.encode("kcl")',
    '',
  ].join('\n');
  assert.equal(
    run(src),
    "a: true\nb: false\nc: a_b_c\nd:\n- '1'\n- '22'\ne: 4.0\nf: 2\ng: '{\"x\": [1, \"y\"]}'\nh: |\n  x: 1\ni: a2Ns\n",
  );
});

test('a program binding no public name prints nothing', () => {
  assert.equal(run('_x = 1\n'), '');
});

test('the API a caller compares values with: evaluateKcl, toPlain, fromJson', () => {
  const { value } = evaluateKcl(memoryHost({ '/m/main.k': 'a = {x = 1.0, _p = 1, l = [None]}\nb = "s"\n' }), {
    paths: ['/m/main.k'],
  });
  assert.deepEqual(toPlain(value), { a: { x: 1, l: [null] }, b: 's' });
  assert.deepEqual(toPlain(fromJson({ n: 2, f: 1.5, l: [true, null] })), { n: 2, f: 1.5, l: [true, null] });
});
