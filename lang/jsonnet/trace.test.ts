/**
 * traceValuePath / traceModuleValue: each row is a Jsonnet file, a value
 * path and the line a person would name as "where this value was set".
 * The `// <-` marks in the sources are only there to make the rows easy to
 * check by eye.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ImportError, JsonnetError, parseModule, parseSnippet, SourceFile } from './index.js';
import type { Importer } from './module.js';
import { TraceError, traceModuleValue, traceRoots, traceValuePath, type PathStep } from './trace.js';

const LIB = `{
  mk(name, replicas=1):: {
    name: name,
    replicas: replicas,
  },
}
`;

const importer: Importer = {
  load(_from, path) {
    if (path === 'lib.libsonnet') return { foundAt: 'lib.libsonnet', contents: new TextEncoder().encode(LIB) };
    throw new ImportError(`couldn't open import "${path}": no match locally or in the Jsonnet library paths`);
  },
};

function trace(text: string, path: PathStep[], tlas?: Record<string, { kind: 'code'; value: string }>): string {
  const loc = traceValuePath(parseModule(new SourceFile('main.jsonnet', text)), path, { importer, tlas });
  return `${loc.file}:${loc.line}`;
}

const rows: { name: string; code: string; path: PathStep[]; want: string }[] = [
  { name: 'a literal field', code: '{\n  a: {\n    b: 1,\n  },\n}\n', path: ['a', 'b'], want: 'main.jsonnet:3' },
  {
    name: 'an object field names its own line',
    code: '{\n  a: {\n    b: 1,\n  },\n}\n',
    path: ['a'],
    want: 'main.jsonnet:2',
  },
  {
    name: 'a +: overlay wins over the base',
    code: '{\n  a: { b: 1 },\n} + {\n  a+: {\n    b: 3,\n  },\n}\n',
    path: ['a', 'b'],
    want: 'main.jsonnet:5',
  },
  {
    name: 'a field the overlay does not touch stays in the base',
    code: '{\n  a: { b: 1,\n    c: 2 },\n} + {\n  a+: { b: 3 },\n}\n',
    path: ['a', 'c'],
    want: 'main.jsonnet:3',
  },
  {
    name: 'a local variable leads to its definition',
    code: 'local n = 3;\n{\n  a: n,\n}\n',
    path: ['a'],
    want: 'main.jsonnet:1',
  },
  {
    name: 'an object local through self',
    code: '{\n  local this = self,\n  x: 5,\n  y: this.x,\n}\n',
    path: ['y'],
    want: 'main.jsonnet:3',
  },
  {
    name: 'a parameter leads to the literal argument of the call',
    code: 'local f(n) = { v: n };\n{\n  a: f(\n    42),\n}\n',
    path: ['a', 'v'],
    want: 'main.jsonnet:4',
  },
  {
    name: 'a named argument',
    code: 'local f(n=0) = { v: n };\n{\n  a: f(\n    n=7),\n}\n',
    path: ['a', 'v'],
    want: 'main.jsonnet:4',
  },
  {
    name: 'a parameter default',
    code: 'local f(n=\n  9) = { v: n };\n{\n  a: f(),\n}\n',
    path: ['a', 'v'],
    want: 'main.jsonnet:2',
  },
  {
    name: 'a computed value is the line of the expression',
    code: 'local n = 2;\n{\n  a:\n    n * 3,\n}\n',
    path: ['a'],
    want: 'main.jsonnet:4',
  },
  {
    name: 'a builtin call is where it was called',
    code: '{\n  a: std.join("-",\n    ["x", "y"]),\n}\n',
    path: ['a'],
    want: 'main.jsonnet:2',
  },
  {
    name: 'an if takes the branch that was taken',
    code: 'local on = false;\n{\n  a: if on\n    then 1\n    else 2,\n}\n',
    path: ['a'],
    want: 'main.jsonnet:5',
  },
  {
    name: 'an array element of a literal array',
    code: '{\n  a: [\n    "x",\n    "y",\n  ],\n}\n',
    path: ['a', 1],
    want: 'main.jsonnet:4',
  },
  {
    name: 'an object inside an array',
    code: '{\n  a: [\n    { n: 1 },\n    {\n      n: 2,\n    },\n  ],\n}\n',
    path: ['a', 1, 'n'],
    want: 'main.jsonnet:5',
  },
  {
    name: 'a comprehension element',
    code: '{\n  a: [\n    { n: i }\n    for i in [1, 2]\n  ],\n}\n',
    path: ['a', 1, 'n'],
    want: 'main.jsonnet:3',
  },
  {
    name: 'super.x leads to the base definition',
    code: '{\n  x: 1,\n} + {\n  x: super.x,\n}\n',
    path: ['x'],
    want: 'main.jsonnet:2',
  },
  {
    name: '$ references',
    code: '{\n  cfg:: { port: 80 },\n  svc: { port: $.cfg.port },\n}\n',
    path: ['svc', 'port'],
    want: 'main.jsonnet:2',
  },
  {
    name: 'an imported function: the caller passed the value',
    code: 'local lib = import "lib.libsonnet";\n{\n  d: lib.mk("web",\n    replicas=3),\n}\n',
    path: ['d', 'replicas'],
    want: 'main.jsonnet:4',
  },
  {
    name: 'an imported function: the library default',
    code: 'local lib = import "lib.libsonnet";\n{\n  d: lib.mk("web"),\n}\n',
    path: ['d', 'replicas'],
    want: 'lib.libsonnet:2',
  },
  {
    name: 'an array at the root, through a local',
    code: 'local x = 1;\n[\n  { a: x },\n  {\n    a: 2,\n  },\n]\n',
    path: [1, 'a'],
    want: 'main.jsonnet:5',
  },
];

for (const row of rows) {
  test(`trace: ${row.name}`, () => {
    assert.equal(trace(row.code, row.path), row.want);
  });
}

test('trace: top-level arguments are applied before walking', () => {
  const code = 'function(request)\n  {\n    echo: request.a,\n  }\n';
  // The value came from the TLA's code, which is not a file.
  assert.equal(trace(code, ['echo'], { request: { kind: 'code', value: '{a: 1}' } }), '<top-level-arg:request>:1');
});

test('trace: a snippet expression over a file (eval --trace)', () => {
  const file = '{\n  a: {\n    b: 1,\n  },\n}\n';
  const imp: Importer = {
    load: () => ({ foundAt: 'main.jsonnet', contents: new TextEncoder().encode(file) }),
  };
  const snippet = parseSnippet('<cmdline>', '((import "main.jsonnet") + { f:: ($.a.b\n) }).f');
  assert.deepEqual(traceModuleValue(snippet, { importer: imp }), { file: 'main.jsonnet', line: 3, column: 8 });
});

const errors: { name: string; code: string; path: PathStep[]; want: RegExp; type: new (...args: never[]) => Error }[] =
  [
    {
      name: 'missing field',
      code: '{ a: {} }',
      path: ['a', 'b'],
      want: /field "b" not found at \$\.a$/,
      type: TraceError,
    },
    {
      name: 'index out of range',
      code: '{ a: [1] }',
      path: ['a', 3],
      want: /index 3 out of bounds at \$\.a/,
      type: TraceError,
    },
    {
      name: 'a scalar is not an object',
      code: '{ a: 1 }',
      path: ['a', 'b'],
      want: /\$\.a is a number/,
      type: TraceError,
    },
    {
      name: 'evaluation error on the path',
      code: '{ a: error "boom" }',
      path: ['a'],
      want: /boom/,
      type: JsonnetError,
    },
    {
      name: 'a reference cycle',
      code: '{ a: self.a }',
      path: ['a'],
      want: /max stack frames|cycle/,
      type: JsonnetError,
    },
  ];
for (const row of errors) {
  test(`trace error: ${row.name}`, () => {
    assert.throws(
      () => trace(row.code, row.path),
      (err: Error) => err instanceof row.type && row.want.test(err.message),
    );
  });
}

test('traceRoots: ursonnet order (go-jsonnet evaluates a +: body before super, object bodies untraced)', () => {
  const code = [
    '{',
    '  a: [1],',
    '  o: { x: 1 },',
    '} + {',
    '  a+: [self.b],',
    '  b: 2,',
    '  o+: { y: $.b },',
    '}',
    '',
  ].join('\n');
  const roots = (path: PathStep[]): string[] =>
    traceRoots(parseModule(new SourceFile('main.jsonnet', code)), path, { importer }).map((l) => `${l.file}:${l.line}`);
  // a (line 5) is noted when its body is done, then super's a (2), then b (6) as the array is printed.
  assert.deepEqual(roots(['a']), ['main.jsonnet:6', 'main.jsonnet:2', 'main.jsonnet:5']);
  // o+: { ... } is an object body: only the fields printed are noted, in name order.
  assert.deepEqual(roots(['o']), ['main.jsonnet:7', 'main.jsonnet:6', 'main.jsonnet:3']);
  assert.throws(() => roots(['a', 'z']), /\$\.a is an array, not an object: cannot follow \$\.a\.z/);
});
