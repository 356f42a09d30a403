// Cases where we once differed from go-jsonnet's testdata or google/jsonnet's
// test_suite (issue 20, item 18), written as our own programs: the full error
// text (go-jsonnet CLI format) or the value go-jsonnet prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { ImportError, JsonnetError, evaluateToString, parseModule } from './index.js';
import type { EvalOptions, Importer } from './index.js';

const files: Record<string, string> = {
  'lib/self.libsonnet': 'std.thisFile',
};
const importer: Importer = {
  load(_from, p) {
    if (p === 'lib') throw new ImportError('read lib: is a directory');
    const text = files[p];
    if (text === undefined) throw new ImportError(`couldn't open import ${JSON.stringify(p)}`);
    return { foundAt: p, contents: Buffer.from(text) };
  },
};

function run(code: string, options: EvalOptions = {}): string {
  try {
    const m = parseModule(new SourceFile('main.jsonnet', code));
    return evaluateToString(m, { importer, ...options }) as string;
  } catch (e) {
    if (e instanceof JsonnetError) return e.format();
    throw e;
  }
}

const natives: EvalOptions['natives'] = {
  fails: {
    params: [],
    fn: () => {
      throw new Error('bad input');
    },
  },
  buggy: {
    params: [],
    fn: () => {
      throw new TypeError('x is undefined');
    },
  },
};

const rows: [string, string, EvalOptions, string][] = [
  // Go's math package rounds these differently from V8.
  [
    'std.cos / std.tan / std.acos / std.atan',
    '[std.cos(5), std.tan(5), std.acos(0.5), std.atan(5)]',
    {},
    '[\n   0.2836621854632263,\n   -3.3805150062465854,\n   1.0471975511965976,\n   1.3734007669450157\n]\n',
  ],
  ['std.pow near the largest double', 'std.pow(1.1, 7447.081) == 1.7975425555842324e308', {}, 'true\n'],
  [
    'a native that throws an Error: its message',
    'std.native("fails")()',
    { natives },
    'RUNTIME ERROR: bad input\n\tmain.jsonnet:1:1-22\t$\n\tDuring evaluation\t\n',
  ],
  [
    'a native that faults: reported as a panic',
    'std.native("buggy")()',
    { natives },
    'RUNTIME ERROR: native function "buggy" panicked: x is undefined\n\tmain.jsonnet:1:1-22\t$\n\tDuring evaluation\t\n',
  ],
  [
    "ext var code is checked on its own, without the caller's locals",
    'local y = 1; std.extVar("v")',
    { extVars: { v: { kind: 'code', value: 'y' } } },
    '<extvar:v>:1:1-2 Unknown variable: y\n\ny\n\n',
  ],
  [
    'ext var with a syntax error',
    'std.extVar("v")',
    { extVars: { v: { kind: 'code', value: ']' } } },
    '<extvar:v>:1:1-2 Unexpected: "]" while parsing terminal\n\n]\n\n',
  ],
  [
    'import of a block string',
    'import |||\n  a\n|||',
    {},
    'main.jsonnet:(1:8)-(3:4) Block string literals not allowed in imports\n\nimport |||\n  a\n|||\n\n',
  ],
  [
    'importstr of a block string',
    'importstr |||\n  a\n|||',
    {},
    'main.jsonnet:(1:11)-(3:4) Block string literals not allowed in imports\n\nimportstr |||\n  a\n|||\n\n',
  ],
  [
    'importbin of a block string',
    'importbin |||\n  a\n|||',
    {},
    'main.jsonnet:(1:11)-(3:4) Block string literals not allowed in imports\n\nimportbin |||\n  a\n|||\n\n',
  ],
  [
    'import of a directory',
    "import 'lib'",
    {},
    'RUNTIME ERROR: read lib: is a directory\n\tmain.jsonnet:1:1-13\t$\n\tDuring evaluation\t\n',
  ],
  ['std.thisFile of an imported file', "import 'lib/self.libsonnet'", {}, '"lib/self.libsonnet"\n'],
  [
    'an error inside a thunk passed down a recursion',
    'local g(t, n) = if n == 0 then error "end" else t;\nlocal h(n) = g(h(n - 1), n - 1);\nh(2)',
    {},
    'RUNTIME ERROR: end\n' +
      '\tmain.jsonnet:1:32-43\tfunction <g>\n' +
      '\tmain.jsonnet:2:14-32\tfunction <h>\n' +
      '\tmain.jsonnet:2:16-24\tthunk from <function <h>>\n' +
      '\tmain.jsonnet:1:49-50\tfunction <g>\n' +
      '\tmain.jsonnet:2:14-32\tfunction <h>\n' +
      '\tmain.jsonnet:3:1-5\t$\n' +
      '\tDuring evaluation\t\n',
  ],
  [
    'stack overflow through std.makeArray: limit + 1 frames, the element frame innermost',
    'local a = [0] + std.makeArray(50, function(i) a[i] + 1); a[20]',
    { maxStack: 6 },
    'RUNTIME ERROR: max stack frames exceeded.\n' +
      '\t\t\n' +
      '\tmain.jsonnet:1:47-51\tfunction <anonymous>\n' +
      '\t\t\n' +
      '\tmain.jsonnet:1:47-51\tfunction <anonymous>\n' +
      '\t\t\n' +
      '\tmain.jsonnet:1:58-63\t$\n' +
      '\tDuring evaluation\t\n',
  ],
];

// Values as the jsonnet command prints them; where C++ jsonnet's test_suite
// expects otherwise, go-jsonnet's answer (docs/jsonnet-conformance.md).
const values: [string, string, string][] = [
  [
    'objectRemoveKey keeps late binding of one literal',
    "{ p: 1 } + std.objectRemoveKey({ q: super.p, r: 0 }, 'r')",
    '{\n   "p": 1,\n   "q": 1\n}',
  ],
  [
    'objectRemoveKey fields see the new self',
    "std.objectRemoveKey({ p: 1, q:: 2, s: self.q }, 'p')",
    '{\n   "s": 2\n}',
  ],
  [
    'objectRemoveKey of a composed object keeps its inheritance',
    "std.objectRemoveKey({ p: 1 } + { q: super.p }, 'p')",
    '{\n   "q": 1\n}',
  ],
  [
    'objectRemoveKey keeps hidden fields hidden',
    "local o = std.objectRemoveKey({ p: 1 } + { q:: 2 }, 'p'); [o, o.q]",
    '[\n   { },\n   2\n]',
  ],
  ['fractional array index truncates (go-jsonnet)', '[5, 6, 7][1.9]', '6'],
  ['shift past 2^53 (go-jsonnet: int64)', '9007199254740992 << 1', '18014398509481984'],
  ['shift past 2^63 wraps (go-jsonnet: int64)', 'local big = 1 << 62; big << 2', '0'],
  ['shift into the sign bit (go-jsonnet: int64)', '4503599627370496 << 11', '-9223372036854775808'],
  ['parseYaml: no document after a trailing ---', 'std.parseYaml("7\\n---")', '[\n   7\n]'],
];
for (const [name, code, want] of values) {
  test(`conformance regression: ${name}`, () => {
    const m = parseModule(new SourceFile('main.jsonnet', code));
    assert.equal(evaluateToString(m, { mode: 'json' }), want + '\n');
  });
}

for (const [name, code, options, want] of rows) {
  test(`conformance regression: ${name}`, () => assert.equal(run(code, options), want));
}
