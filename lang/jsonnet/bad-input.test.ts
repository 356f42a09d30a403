// Hostile and broken input: every failure must be a located JsonnetError,
// never a JS exception (RangeError, TypeError...) and never a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, evaluateSnippet, parseModule, evaluate } from './index.js';
import { lex } from './lexer.js';

function expectJsonnetError(code: string, pattern?: RegExp): JsonnetError {
  try {
    evaluate(parseModule(new SourceFile('bad.jsonnet', code)));
  } catch (e) {
    if (!(e instanceof JsonnetError))
      throw new Error(`non-Jsonnet exception for ${JSON.stringify(code.slice(0, 60))}: ${String(e)}`);
    if (pattern) assert.match(e.message, pattern, code.slice(0, 60));
    assert.ok(e.format().length > 0);
    return e;
  }
  throw new Error(`expected an error for ${JSON.stringify(code.slice(0, 60))}`);
}

const programs = [
  'local f(x, y=2) = {a: x, b:: y, [x]: [y for y in [1, 2] if y > 1]}; f("k") + {c+: 1}',
  '{ a: |||\n  text\n|||, b: @"v", c: "\\u00e9", d: super.x, assert self.a != "" : "m" }',
  'local o = {f(a):: a * 2}; [o.f(3), o["f"](1), "s"[0:1], std.length([1]) tailstrict]',
  'if 1 < 2 then error "x" else (function(q) q)(3) % 4',
];

test('programs truncated at every token fail with a located JsonnetError', () => {
  for (const p of programs) {
    const tokens = lex(new SourceFile('p', p));
    for (const t of tokens) {
      const cut = p.slice(0, t.start);
      try {
        evaluate(parseModule(new SourceFile('cut.jsonnet', cut)));
      } catch (e) {
        assert.ok(e instanceof JsonnetError, `non-Jsonnet exception for ${JSON.stringify(cut)}: ${String(e)}`);
        if (e.kind === 'static') assert.ok(e.span, cut);
        else assert.ok(e.trace.length > 0, cut);
      }
    }
  }
});

test('deep nesting gives a clean error', () => {
  expectJsonnetError('['.repeat(100000), /too deeply nested/);
  expectJsonnetError('('.repeat(100000) + '1' + ')'.repeat(100000), /too deeply nested/);
  expectJsonnetError('-'.repeat(100000) + '1', /too deeply nested/);
  expectJsonnetError('{a:'.repeat(50000) + '1' + '}'.repeat(50000), /too deeply nested/);
});

test('nesting under the parser limit still evaluates or fails cleanly', () => {
  assert.equal(evaluateSnippet('n.jsonnet', '('.repeat(900) + '1' + ')'.repeat(900)), 1);
  // Deep output hits the manifestation stack limit, like go-jsonnet.
  expectJsonnetError('['.repeat(900) + ']'.repeat(900), /max stack frames exceeded/);
});

test('unbounded recursion hits max stack frames', () => {
  expectJsonnetError('local f(x) = f(x + 1); f(0)', /^max stack frames exceeded\.$/);
  expectJsonnetError('local a(x) = b(x) + 1, b(x) = a(x) + 1; a(0)', /max stack frames exceeded/);
  expectJsonnetError('local x = x + 1; x', /max stack frames exceeded/);
  expectJsonnetError('local o = {a: self.b, b: self.a}; o.a', /max stack frames exceeded/);
  expectJsonnetError('{a: $} == {a: $}', /max stack frames exceeded/);
  expectJsonnetError('local o = {a: o}; std.manifestJson(o)', /max stack frames exceeded|manifest/);
});

test('long operator chains evaluate, or fail cleanly when extreme', () => {
  const chain = (n: number): string => Array.from({ length: n }, () => '1').join(' + ');
  assert.equal(evaluateSnippet('c.jsonnet', chain(2000)), 2000);
  try {
    assert.equal(evaluateSnippet('c.jsonnet', chain(200000)), 200000);
  } catch (e) {
    assert.ok(e instanceof JsonnetError, String(e));
  }
});

test('odd values never crash', () => {
  for (const code of [
    '[1][1.5]',
    '"abc"[-1]',
    '[1][null]',
    '{}[1]',
    'null.x',
    '1e309',
    'std.makeArray(-1, function(i) i)',
    'std.range(1, "a")',
    'std.substr(1, 2, 3)',
    'std.objectFields(1)',
    'std.foldl(1, [1], 0)',
    'std.sort([1, "a"])',
    '[1, 2] < ["a"]',
    '{} < {}',
    '1 << 1e30',
    'std.pow(10, 400)',
    'local f(x) = x; f(1)(2)',
    'std.native("nope")(1)',
  ]) {
    expectJsonnetError(code);
  }
});
