import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonnetError } from '../errors.js';
import { formatExpression, formatJsonnet, FormatOptionsError, type FormatOptions } from './index.js';

// Each row was checked against /usr/bin/jsonnetfmt (v0.18).
const cases: { name: string; input: string; options?: FormatOptions; want: string }[] = [
  { name: 'pads objects, not arrays', input: '{a:[1,2]}', want: '{ a: [1, 2] }\n' },
  { name: 'pad-arrays', input: '[1,2]', options: { padArrays: true }, want: '[ 1, 2 ]\n' },
  { name: 'no-pad-objects', input: '{a:1}', options: { padObjects: false }, want: '{a: 1}\n' },
  { name: 'single quotes by default', input: '"x"', want: "'x'\n" },
  { name: 'double quotes', input: "'x'", options: { stringStyle: 'd' }, want: '"x"\n' },
  { name: 'a quote inside picks the other quote', input: '"it\'s"', want: '"it\'s"\n' },
  { name: 'hash comments', input: '// c\n1', options: { commentStyle: 'h' }, want: '# c\n1\n' },
  { name: 'she-bang kept', input: '#!/usr/bin/env jsonnet\n1', want: '#!/usr/bin/env jsonnet\n1\n' },
  { name: 'pretty field names', input: "{'a': x['b']}", want: '{ a: x.b }\n' },
  { name: 'keywords stay quoted', input: "{'if': 1}", want: "{ 'if': 1 }\n" },
  { name: 'no pretty field names', input: "{'a': 1}", options: { prettyFieldNames: false }, want: "{ 'a': 1 }\n" },
  { name: 'implicit plus', input: 'a + {b: 1}', want: 'a { b: 1 }\n' },
  { name: 'redundant slice colon', input: 'a[1::]', want: 'a[1:]\n' },
  { name: 'one paren level per run', input: '(((1)))', want: '((1))\n' },
  { name: 'expanded array gets trailing comma', input: '[1,\n2]', want: '[\n  1,\n  2,\n]\n' },
  { name: 'one-line array loses trailing comma', input: '[1, 2,]', want: '[1, 2]\n' },
  { name: 'indent 4', input: '{\na: 1}', options: { indent: 4 }, want: '{\n    a: 1,\n}\n' },
  {
    name: 'blank lines capped',
    input: 'local a = 1;\n\n\n\n\na',
    options: { maxBlankLines: 1 },
    want: 'local a = 1;\n\na\n',
  },
  {
    name: 'imports sorted',
    input: "local b = import 'b';\nlocal a = import 'a';\na + b",
    want: "local a = import 'a';\nlocal b = import 'b';\na + b\n",
  },
  {
    name: 'imports kept in order',
    input: "local b = import 'b';\nlocal a = import 'a';\na + b",
    options: { sortImports: false },
    want: "local b = import 'b';\nlocal a = import 'a';\na + b\n",
  },
  { name: 'text block re-indented', input: '{a: |||\n      x\n|||}', want: '{ a: |||\n  x\n||| }\n' },
  { name: 'empty input line end', input: '1', want: '1\n' },
];

for (const c of cases) {
  test(`formatJsonnet: ${c.name}`, () => {
    assert.equal(formatJsonnet('t.jsonnet', c.input, c.options), c.want);
  });
}

test('syntax errors throw a located JsonnetError', () => {
  const bad = '{\n  a: 1,\n  b: ,\n}\n';
  assert.throws(
    () => formatJsonnet('bad.jsonnet', bad),
    (e: unknown) => e instanceof JsonnetError && /^bad\.jsonnet:3:6/.test(e.format()),
  );
});

test('lexer errors are located too', () => {
  assert.throws(
    () => formatJsonnet('bad.jsonnet', 'local x = "unterminated;\nx'),
    (e: unknown) => e instanceof JsonnetError && e.format().startsWith('bad.jsonnet:1:11'),
  );
});

test('a pathologically long chain is a located error, not a RangeError', () => {
  const long = '1' + ' + 1'.repeat(20000);
  assert.throws(
    () => formatJsonnet('long.jsonnet', long),
    (e: unknown) => e instanceof JsonnetError,
  );
});

test('invalid options are refused', () => {
  assert.throws(() => formatJsonnet('t', '1', { indent: -1 }), FormatOptionsError);
  assert.throws(() => formatJsonnet('t', '1', { stringStyle: 'x' as 'd' }), FormatOptionsError);
  assert.throws(() => formatExpression('1', 1.5), FormatOptionsError);
});

const expressionCases: { name: string; input: string; indent: number; want: string }[] = [
  { name: 'one line', input: '{a:1}', indent: 4, want: '{ a: 1 }' },
  {
    name: 'continuation lines from the given column',
    input: '{\na: [1,\n2]}',
    indent: 4,
    want: '{\n      a: [\n        1,\n        2,\n      ],\n    }',
  },
  { name: 'at column 0 like a file without the final newline', input: 'f(1,\n2)', indent: 0, want: 'f(1,\n  2)' },
];

for (const c of expressionCases) {
  test(`formatExpression: ${c.name}`, () => {
    assert.equal(formatExpression(c.input, c.indent), c.want);
  });
}

test('formatExpression at column 0 matches formatJsonnet', () => {
  const src = 'local x = {a: 1,\n b: [1,\n 2]};\nx';
  assert.equal(formatExpression(src, 0) + '\n', formatJsonnet('t', src));
});
