// Lexer and parser: accepted syntax, and static errors with go-jsonnet's
// wording and `file:line:col` location (columns count UTF-8 bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, formatSpan } from './errors.js';
import { lex } from './lexer.js';
import { parse, parseTokens } from './parser.js';
import { scanTokens } from './scanner.js';
import { parseModule } from './module.js';

const accepted = [
  '{a: 1, "b": 2, \'c\': 3, [d]: 4, e:: 5, f::: 6, g+: 7, h+:: 8, i+::: 9}',
  '{f(x, y=1):: x + y, local l = 1, assert l == 1 : "msg", assert true}',
  '{[k]: v for k in ["a"] for v in [1] if v > 0}',
  '{local a = 1, [k]: a for k in ["x"]}',
  '[x for x in [1, 2] if x > 1 for y in [3]]',
  'local a = 1, b(x) = x, c = function(y) y; a',
  'a.b[c][d:e][::f][g:][:h:i](1, 2, x=3)(j) tailstrict',
  'a { b: 1 } { c: 2 }',
  'if a then b else if c then d',
  'assert a; assert b : c; d',
  'error "x"',
  '(import "a") + (importstr "b") + (importbin \'c\')',
  '!a + -b * ~c - +d',
  'a in b && c in super || d',
  '1 + 2 * 3 % 4 / 5 - 6 << 7 >> 8 < 9 <= 10 > 11 >= 12 == 13 != 14 & 15 ^ 16 | 17',
  '$.a + self.b + super.c + super["d"]',
  '@"verbatim ""quoted"" \\n" + @\'x\'',
  '|||\n  text\n  block\n|||',
  '|||-\n  chomped\n|||',
  '# hash comment\n// line comment\n/* block */ 1',
  '0 + 1.5 + 1e3 + 1.5E-3 + 2e+2',
  'function(x, y,) x',
  'f(1, 2,)',
  '[1, 2,]',
  'a+-b',
];

test('parses valid programs', () => {
  for (const code of accepted) parse(new SourceFile('t', code));
});

function staticErr(code: string, analyze = false): string {
  try {
    if (analyze) parseModule(new SourceFile('t', code));
    else parse(new SourceFile('t', code));
  } catch (e) {
    assert.ok(e instanceof JsonnetError, code);
    assert.equal(e.kind, 'static');
    return `${formatSpan(e.span!)} ${e.message}`;
  }
  return 'no error';
}

const parseErrors: [string, string][] = [
  ['', 't:1:1 Unexpected end of file'],
  ['{x: 1', 't:1:6 Expected a comma before next field'],
  ['{x 1}', 't:1:4-5 Expected token OPERATOR but got (NUMBER, "1")'],
  ['{x = 1}', 't:1:4-5 Expected one of :, ::, :::, +:, +::, +:::, got: ='],
  ['{x: 1, x: 2}', 't:1:8-9 Duplicate field: x'],
  ['{f(a)+: 1}', 't:1:2-3 Cannot use +: syntax sugar in a method: f'],
  ['local x = 1, x = 2; x', 't:1:14-15 Duplicate local var: x'],
  ['local x = 1 x', 't:1:13-14 Expected , or ; but got (IDENTIFIER, "x")'],
  ['local', 't:1:6 Expected token IDENTIFIER but got end of file'],
  ['f(a=1, 2)', 't:1:8-9 Positional argument after a named argument is not allowed'],
  ['f(1 2)', 't:1:5-6 Expected a comma before next function argument, got (NUMBER, "2")'],
  ['function(1) 1', 't:1:10-11 Expected token IDENTIFIER but got (NUMBER, "1") while parsing parameter'],
  ['[1 2]', 't:1:4-5 Expected a comma before next array element'],
  ['[x for x in y z]', 't:1:15-16 Expected for, if or "]" after for clause, got: (IDENTIFIER, "z")'],
  ['{[k]: 1, [j]: 2 for k in a}', 't:1:17-20 Object comprehension can only have one field'],
  ['{a: 1 for k in x}', 't:1:7-10 Object comprehensions can only have [e] fields'],
  ['a[]', 't:1:3-4 ast.Index requires an expression'],
  ['a[1:2:3:4]', 't:1:8-9 Invalid slice: too many colons'],
  ['1 = 2', 't:1:3-4 Not a binary operator: ='],
  ['* 2', 't:1:1-2 Not a unary operator: *'],
  ['then', 't:1:1-5 Unexpected: "then" while parsing terminal'],
  [')', 't:1:1-2 Unexpected: ")" while parsing terminal'],
  ['1 2', 't:1:3-4 Did not expect: (NUMBER, "2")'],
  ['super', 't:1:1-6 Expected . or [ after super'],
  ['import x', 't:1:8-9 Computed imports are not allowed'],
  ['import |||\n  a\n|||', 't:(1:8)-(3:4) Block string literals not allowed in imports'],
  ['"\\q"', 't:1:1-5 Unknown escape sequence in string literal: \\q'],
  ['"\\u12"', 't:1:1-7 Truncated unicode escape sequence in string literal.'],
  ['"abc', 't:1:1 Unterminated String'],
  ["'abc", 't:1:1 Unterminated String'],
  ['1.x', "t:1:3 Couldn't lex number, junk after decimal point: 'x'"],
  ['1e', "t:1:3 Couldn't lex number, junk after 'E': '\\x00'"],
  ['/* open', 't:1:1 Multi-line comment has no terminating */'],
  ['|||\nno indent\n|||', "t:1:1 Text block's first line must start with whitespace"],
  ['|||\n  text', 't:1:1 Unexpected EOF'],
  ['|||  x', 't:1:1 Text block requires new line after |||.'],
  ['é', "t:1:1 Could not lex the character '\\u00e9'"],
  ['"é" + ?', "t:1:8 Could not lex the character '?'"],
];

test('reports parse errors like go-jsonnet', () => {
  for (const [code, want] of parseErrors) assert.equal(staticErr(code), want, code);
});

const analysisErrors: [string, string][] = [
  ['local x = 1; y', 't:1:14-15 Unknown variable: y'],
  ['self', "t:1:1-5 Can't use self outside of an object."],
  ['super.x', "t:1:1-6 Can't use super outside of an object."],
  ['"a" in super', "t:1:1-13 Can't use super outside of an object."],
  ['$', 't:1:1-2 No top-level object found.'],
  ['function(a, a) a', 't:1:13-14 Duplicate function parameter: a'],
  ['{a: x}', 't:1:5-6 Unknown variable: x'],
  ['[x for x in [x]]', 't:1:14-15 Unknown variable: x'],
  ['{[self.a]: 1}', "t:1:3-7 Can't use self outside of an object."],
];

test('reports static analysis errors', () => {
  for (const [code, want] of analysisErrors) assert.equal(staticErr(code, true), want, code);
});

test('keeps fodder on tokens and spans on nodes', () => {
  const toks = lex(new SourceFile('t', '  // c\n  1 /* d */ + 2\n'));
  assert.deepEqual(
    toks[0]!.fodder.map((f) => f.kind),
    ['whitespace', 'comment', 'whitespace'],
  );
  assert.equal(toks[1]!.fodder[1]!.text, '/* d */');
  assert.equal(toks.at(-1)!.kind, 'end of file');
  const node = parse(new SourceFile('t', 'local a = 1;\n  a + 2'));
  assert.equal(node.type, 'Local');
  if (node.type === 'Local') assert.deepEqual([node.body.span.start, node.body.span.end], [15, 20]);
});

test('a static error prints with its source line', () => {
  try {
    parseModule(new SourceFile('f.jsonnet', 'local x = 1;\nx + y'));
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof JsonnetError);
    assert.equal(e.format(), 'f.jsonnet:2:5-6 Unknown variable: y\n\nx + y\n\n');
  }
});

test('attaches node fodder only when asked, and parses a scanned buffer', () => {
  const code = '/* a */ local x = 1; // b\n x';
  const plain = parse(new SourceFile('t', code));
  assert.equal(plain.fodder, undefined);
  const kept = parse(new SourceFile('t', code), { fodder: true });
  assert.deepEqual(
    kept.fodder?.map((f) => f.text),
    ['/* a */', ' '],
  );
  if (kept.type === 'Local') {
    assert.deepEqual(
      kept.body.fodder?.map((f) => f.text),
      [' ', '// b', '\n '],
    );
  }
  const tokens = scanTokens(new SourceFile('t', code));
  assert.deepEqual(parseTokens(tokens), plain);
});

test('shares one frozen array for empty lists and sizes the others exactly', () => {
  const node = parse(new SourceFile('t', '{ a: f(1) }'));
  assert.ok(node.type === 'Object');
  if (node.type !== 'Object') return;
  assert.ok(Object.isFrozen(node.locals) && (node.locals as unknown) === node.asserts);
  assert.throws(() => (node.locals as unknown[]).push(1), TypeError);
  const call = node.fields[0]!.body;
  assert.ok(call.type === 'Apply' && call.positional.length === 1 && Object.isFrozen(call.named));
});

// The parser builds every list on one shared stack and checks field names on
// another (a Set only past 32 fields): nested and sibling lists must not mix.
test('keeps nested and sibling lists apart and finds duplicates in big objects', () => {
  const fields = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}: ${i}`).join(', ');
  const big = `{ ${fields(40, 'a')} }`;
  // Sibling objects of 40 fields (the second reuses the first one's place on the name stack);
  // the expected locations are the ones the parser gave before the stacks.
  assert.equal(staticErr(`[${big}, { ${fields(40, 'a')}, b: 1 }]`), 'no error');
  assert.equal(staticErr(`[${big}, { ${fields(39, 'a')}, a5: 1 }]`), 't:1:679-681 Duplicate field: a5');
  assert.equal(
    staticErr(`{ ${fields(50, 'a')}, x: { ${fields(35, 'a')} }, a49: 1 }`),
    't:1:735-738 Duplicate field: a49',
  );
  assert.equal(staticErr(`{ a: { a: 1 }, b: { a: 1 }, c: 1 }`), 'no error');
  assert.equal(staticErr(`{ "a\\u0062": 1, ab: 2, 'x': 3, "x": 4 }`), 't:1:32-35 Duplicate field: x');
  const node = parse(new SourceFile('t', 'f(1, [2, 3], g(4, y=5), x={ a: [6], b: h(7)(8) }, z=[9])'));
  assert.ok(node.type === 'Apply');
  if (node.type !== 'Apply') return;
  assert.deepEqual([node.positional.length, node.named.map((a) => a.name)], [3, ['x', 'z']]);
  const inner = node.positional[2]!;
  assert.ok(inner.type === 'Apply' && inner.positional.length === 1 && inner.named[0]!.name === 'y');
  const obj = node.named[0]!.value;
  assert.ok(obj.type === 'Object' && obj.fields.map((f) => f.name).join() === 'a,b');
  const local = parse(new SourceFile('t', 'local a = [1, 2], b(x, y=[x]) = { c: x }; [a, b]'));
  assert.ok(local.type === 'Local' && local.binds.map((b) => b.name).join() === 'a,b');
});
