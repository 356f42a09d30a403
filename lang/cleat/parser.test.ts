/**
 * Lexer and parser: the whole grammar parses with spans, and syntax errors
 * are recovered from with stable codes and exact positions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SourceFile } from '../common/source.js';
import { parseProgram } from './parser.js';
import { scan } from './lexer.js';
import { short } from '../../test/support/cleat-kit.js';

const GRAMMAR = `
import * as k8s from "../schemas/kubernetes-1.37.json"
import * as base from "./base.cleat"
import { Deployment, core.v1.Event as Event } from "../schemas/kubernetes-1.37.json"
import defaults from "./defaults.yaml" with { type: "yaml" }
type Env = "dev" | "staging" | "prod"
type R = { f: Int, g?: Str, h: Int = 3, "a/b": Str, .. }
type M = { [Str]: [Int] }
type Tup = (Int, Str)
type Lit = null | true | false | 42 | 1.5 | -3
type W = k8s.Deployment with { spec.replicas where self <= 10, spec.x[].y: Str = "d", -status }
refine k8s.ServiceSpec with { type: "ClusterIP" }
input env: Env
input replicas: Int where self >= 1 = 2
let name = "api"
let typed: Str = "x"
fn port_name(p: Int, q: Int = 8080) -> Str = "http-\\(p)"
export { kind: "ConfigMap" }
export db = [ a, b ]
export app after db, config = [ c ]
export {
  name: "web",
  "app.kubernetes.io/name": "web",
  metadata.labels.app: "web",
  ...base,
  if env == "prod" then { replicas: 3 },
  for k, v in extra => { [k]: v },
  l: [ a, ...rest, if debug then sidecar, for c in containers => c.name, for c in cs => if c.enabled then c ],
  t: (a, b), e: x.f, i: x.0, j: xs[i], k: m["key"], call: f(a, b, name: c),
  ctor: k8s.Service { spec.type: "NodePort" },
  ops: -x + !y * 2 / 3 % 4 - 1 == 2 && a != b || c < d && e <= f && g > h && i >= j,
  n: a ?? b, c: if c then a else b, lt: let x = 1; x,
  m: match r { d: { kind: "Deployment", .. } => d.spec.replicas ?? 1, (p, q) => 0, "lit" => 1, 2 => 2, null => 3, _ => 0 },
  p: base.app("api", image) with {
    [kind: "Deployment"].spec.replicas: 3,
    [kind: "Deployment"].metadata.labels +: { tier: "prod" },
    -[kind: "Deployment"].spec.strategy,
    items[0].name: "x",
  },
  s: """
    multi \\(line)
      indented
    """,
}
`;

test('the whole grammar parses without diagnostics', () => {
  const r = parseProgram(new SourceFile('g.cleat', GRAMMAR));
  assert.deepEqual(r.diagnostics.map(short), []);
  assert.equal(r.program.items.length, 20);
  for (const it of r.program.items) assert.ok(it.span.end > it.span.start);
});

const ERRS: [string, string[]][] = [
  ['let = 1\nlet ok = 2\n', ['1:5 CLEAT_PARSE expected a name, found `=`']],
  [
    'let a = (1\nlet b = 2\nlet c = ]\n',
    ['2:1 CLEAT_PARSE expected `)`, found `let`', '3:9 CLEAT_PARSE expected an expression, found `]`'],
  ],
  ['let a = "abc\n', ['1:9 CLEAT_LEX unterminated string']],
  ['let a = "\\q"\n', ['1:10 CLEAT_LEX unknown escape `\\q`']],
  ['let a = 1 < 2 < 3\n', ['1:15 CLEAT_PARSE comparisons do not chain; use `&&`, found `<`']],
  [
    'let a = """abc\n"""\n',
    [
      '1:9 CLEAT_LEX a """ string starts on the line after the opening quotes',
      '2:1 CLEAT_LEX unterminated """ string',
      '2:1 CLEAT_PARSE expected `type`, `input`, `let`, `fn`, `export`, `import` or `refine`, found `"""\n`',
    ],
  ],
  ['let a = """\n  x\n y\n  """\n', ['3:1 CLEAT_LEX line is indented less than the closing """']],
  [
    'let a = if x then 1\n',
    ['2:1 CLEAT_PARSE expected `else` (an `if` expression needs both branches), found end of file'],
  ],
  ['let a = 12abc\n', ['1:9 CLEAT_LEX malformed number `12abc`']],
  ['let a = 1 let b = 2\n', ['1:11 CLEAT_PARSE expected a new line after the item, found `let`']],
  [
    'import x from "a" with { kind: "yaml" }\n',
    ['1:26 CLEAT_IMPORT unsupported import attribute `kind`: `type` is the only attribute'],
  ],
  [
    'let a = #\n',
    ['1:9 CLEAT_LEX unexpected character `#`', '2:1 CLEAT_PARSE expected an expression, found end of file'],
  ],
];

test('syntax errors: codes, positions, recovery', () => {
  for (const [src, want] of ERRS) {
    assert.deepEqual(parseProgram(new SourceFile('e.cleat', src)).diagnostics.map(short), want, src);
  }
});

test('deep nesting is an error, not a crash (hazard 14)', () => {
  const src = `let a = ${'('.repeat(5000)}1${')'.repeat(5000)}\n`;
  const d = parseProgram(new SourceFile('deep.cleat', src)).diagnostics.map(short);
  assert.equal(d.length, 1);
  assert.match(d[0]!, /CLEAT_PARSE nesting too deep/);
});

test('block strings: closing indentation removed, last newline dropped, escapes work', () => {
  const f = new SourceFile('s', 'let s = """\n    a\\tb\n      c\n\n    """\n');
  const toks = scan(f, []);
  assert.deepEqual(toks[3]!.parts, [{ kind: 'text', value: 'a\tb\n  c\n' }]);
});
