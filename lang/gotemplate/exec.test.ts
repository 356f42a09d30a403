// Execution tables for the template language, written from Go's doc.go and
// observed Go behaviour: output text or the exact Go error message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoFloat, parseTemplate, TemplateError, type TemplateOptions } from './index.js';

interface Case {
  name: string;
  input: string;
  data?: unknown;
  out?: string;
  err?: string | RegExp;
  opts?: TemplateOptions;
}

const data = {
  s: 'str',
  i: 17,
  f: 1.5,
  f1: new GoFloat(1),
  big: new GoFloat(1e6),
  t: true,
  fa: false,
  empty: '',
  zero: 0,
  nul: null,
  list: [1, 2, 3],
  strs: ['a', 'b'],
  emptyList: [],
  map: { b: 2, a: 1, c: 3 },
  emptyMap: {},
  nested: { x: { y: 'deep' } },
  mixed: [1, 'two', null, [3], { k: 'v' }],
  html: '<b>"x"</b>',
};

const cases: Case[] = [
  // Text, comments and trimming.
  { name: 'plain text', input: 'hello', out: 'hello' },
  { name: 'empty', input: '', out: '' },
  { name: 'comment', input: 'a{{/* c */}}b', out: 'ab' },
  { name: 'trimmed comment', input: 'a  {{- /* c */ -}}  b', out: 'ab' },
  { name: 'left trim', input: 'a \n\t{{- 1}}', out: 'a1' },
  { name: 'right trim', input: '{{1 -}} \n b', out: '1b' },
  { name: 'both trims', input: 'x {{- 1 -}} y', out: 'x1y' },
  { name: 'minus number is not a trim', input: '{{-1}}', out: '-1' },
  { name: 'minus without space is a number', input: '{{ -1 }}', out: '-1' },
  { name: 'trim keeps inner', input: '{{- "a b" -}}', out: 'a b' },
  {
    name: 'comment must end at delim',
    input: '{{/* c */ }}',
    err: 'template: t:1: comment ends before closing delimiter',
  },
  { name: 'unclosed comment', input: '{{/* c ', err: 'template: t:1: unclosed comment' },
  // Fields and variables.
  { name: 'dot', input: '{{.}}', data: 'x', out: 'x' },
  { name: 'field', input: '{{.s}}', data, out: 'str' },
  { name: 'nested field', input: '{{.nested.x.y}}', data, out: 'deep' },
  { name: 'missing key default', input: '{{.nope}}', data, out: '<no value>' },
  { name: 'missing key zero', input: '{{.nope}}', data, out: '<no value>', opts: { missingKey: 'zero' } },
  {
    name: 'missing key error',
    input: '{{.nope}}',
    data,
    opts: { missingKey: 'error' },
    err: 'template: t:1:2: executing "t" at <.nope>: map has no entry for key "nope"',
  },
  { name: 'missing chain default', input: '{{.nope.deeper}}', data, out: '<no value>' },
  {
    name: 'missing chain zero is nil pointer',
    input: '{{.nope.deeper}}',
    data,
    opts: { missingKey: 'zero' },
    err: 'template: t:1:7: executing "t" at <.nope.deeper>: nil pointer evaluating interface {}.deeper',
  },
  { name: 'null field', input: '{{.nul}}', data, out: '<no value>' },
  {
    name: 'field of null',
    input: '{{.nul.x}}',
    data,
    err: 'template: t:1:6: executing "t" at <.nul.x>: nil pointer evaluating interface {}.x',
  },
  {
    name: 'field of string from map',
    input: '{{.s.x}}',
    data,
    err: 'template: t:1:4: executing "t" at <.s.x>: can\'t evaluate field x in type interface {}',
  },
  {
    name: 'field of string dot',
    input: '{{with .s}}{{.x}}{{end}}',
    data,
    err: 'template: t:1:13: executing "t" at <.x>: can\'t evaluate field x in type string',
  },
  { name: 'nil data', input: '{{.x}}', data: null, out: '<no value>' },
  {
    name: 'nil data error',
    input: '{{.x}}',
    data: null,
    opts: { missingKey: 'error' },
    err: 'template: t:1:2: executing "t" at <.x>: nil data; no entry for key "x"',
  },
  { name: 'no prototype keys', input: '{{.constructor}}{{.toString}}', data: {}, out: '<no value><no value>' },
  { name: '__proto__ key', input: '{{.__proto__}}', data: JSON.parse('{"__proto__": "p"}'), out: 'p' },
  { name: 'variable decl', input: '{{$x := 3}}{{$x}}', out: '3' },
  { name: 'variable assign', input: '{{$x := 3}}{{$x = 4}}{{$x}}', out: '4' },
  { name: 'dollar', input: '{{with .nested}}{{$.s}}{{end}}', data, out: 'str' },
  { name: 'variable field', input: '{{$n := .nested}}{{$n.x.y}}', data, out: 'deep' },
  { name: 'undefined variable', input: '{{$x}}', err: 'template: t:1: undefined variable "$x"' },
  {
    name: 'variable scope ends',
    input: '{{if true}}{{$x := 1}}{{end}}{{$x}}',
    err: 'template: t:1: undefined variable "$x"',
  },
  { name: 'assign in if persists outside', input: '{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}', out: '2' },
  { name: 'chain on pipeline', input: '{{(.nested).x.y}}', data, out: 'deep' },
  { name: 'field on literal', input: '{{"x".y}}', err: 'template: t:1: unexpected . after term "\\"x\\""' },
  // Literals.
  { name: 'int', input: '{{17}}', out: '17' },
  { name: 'negative', input: '{{-17}}', out: '-17' },
  { name: 'hex', input: '{{0x1F}}', out: '31' },
  { name: 'octal', input: '{{0o17}} {{017}}', out: '15 15' },
  { name: 'binary', input: '{{0b101}}', out: '5' },
  { name: 'underscore', input: '{{1_000}}', out: '1000' },
  { name: 'char', input: "{{'a'}} {{'\\n'}}", out: '97 10' },
  { name: 'float', input: '{{1.5}} {{1.0}} {{1e3}} {{.5}}', out: '1.5 1 1000 0.5' },
  {
    name: 'float exponent form',
    input: '{{1e6}} {{1e21}} {{123456.0}} {{1234567.0}} {{0.0001}} {{0.00001}}',
    out: '1e+06 1e+21 123456 1.234567e+06 0.0001 1e-05',
  },
  { name: 'string escapes', input: '{{"a\\tb\\u00e9\\x41"}}', out: 'a\tbéA' },
  { name: 'raw string', input: '{{`a\\n`}}', out: 'a\\n' },
  { name: 'bool', input: '{{true}} {{false}}', out: 'true false' },
  { name: 'nil command', input: '{{nil}}', err: 'template: t:1:2: executing "t" at <nil>: nil is not a command' },
  { name: 'bad number', input: '{{3k}}', err: 'template: t:1: bad number syntax: "3k"' },
  {
    name: 'int overflow',
    input: '{{99999999999999999999}}',
    err: 'template: t:1: integer overflow: "99999999999999999999"',
  },
  // ParseFloat's range error makes it no float at all (text/template's NumberNode)
  { name: 'float overflow', input: '{{1e400}}', err: 'template: t:1: illegal number syntax: "1e400"' },
  { name: 'underscores and prefixes', input: '{{0x_1F}} {{1_000}} {{0o17}} {{-0b11}}', out: '31 1000 15 -3' },
  {
    name: 'uint64 constant overflows int',
    input: '{{18446744073709551615}}',
    err: 'template: t:1:2: executing "t" at <18446744073709551615>: 18446744073709551615 overflows int',
  },
  { name: 'hex float', input: '{{0x1p-2}} {{0x1.8p1}}', out: '0.25 3' },
  { name: 'unterminated string', input: '{{"abc}}', err: 'template: t:1: unterminated quoted string' },
  // Data numbers.
  { name: 'float64 integral prints like int', input: '{{.f1}} {{.f}} {{.big}}', data, out: '1 1.5 1e+06' },
  { name: 'printf %d of float64', input: '{{printf "%d" .f1}}', data, out: '%!d(float64=1)' },
  { name: 'printf %d of int', input: '{{printf "%d" .i}}', data, out: '17' },
  // Conditionals.
  { name: 'if true', input: '{{if .t}}y{{end}}', data, out: 'y' },
  { name: 'if else', input: '{{if .fa}}y{{else}}n{{end}}', data, out: 'n' },
  { name: 'else if', input: '{{if .fa}}a{{else if .zero}}b{{else if .s}}c{{else}}d{{end}}', data, out: 'c' },
  {
    name: 'truthiness',
    input:
      '{{if .empty}}1{{end}}{{if .zero}}2{{end}}{{if .emptyList}}3{{end}}{{if .emptyMap}}4{{end}}{{if .nul}}5{{end}}{{if .nope}}6{{end}}{{if .list}}7{{end}}{{if .f}}8{{end}}',
    data,
    out: '78',
  },
  { name: 'with', input: '{{with .nested.x}}{{.y}}{{end}}', data, out: 'deep' },
  { name: 'with else', input: '{{with .nope}}a{{else}}b{{end}}', data, out: 'b' },
  { name: 'else with', input: '{{with .nope}}a{{else with .s}}{{.}}{{else}}c{{end}}', data, out: 'str' },
  { name: 'with declares', input: '{{with $x := .s}}{{$x}}{{end}}', data, out: 'str' },
  // Range.
  { name: 'range slice', input: '{{range .list}}{{.}},{{end}}', data, out: '1,2,3,' },
  { name: 'range index', input: '{{range $i, $e := .strs}}{{$i}}:{{$e}} {{end}}', data, out: '0:a 1:b ' },
  { name: 'range one var is element', input: '{{range $e := .strs}}{{$e}}{{end}}', data, out: 'ab' },
  { name: 'range map sorted', input: '{{range $k, $v := .map}}{{$k}}={{$v}};{{end}}', data, out: 'a=1;b=2;c=3;' },
  {
    name: 'range map code point order',
    input: '{{range $k, $v := .}}{{$k}}{{end}}',
    data: { b: 1, B: 1, a: 1, '10': 1, '9': 1, é: 1 },
    out: '109Bab\u00e9',
  },
  { name: 'range else', input: '{{range .emptyList}}x{{else}}empty{{end}}', data, out: 'empty' },
  { name: 'range missing', input: '{{range .nope}}x{{else}}none{{end}}', data, out: 'none' },
  { name: 'range int', input: '{{range 3}}{{.}}{{end}}', out: '012' },
  { name: 'range int var', input: '{{range $i := 3}}{{$i}}{{end}}', out: '012' },
  { name: 'range zero int else', input: '{{range 0}}x{{else}}none{{end}}', out: 'none' },
  {
    name: 'range int two vars',
    input: '{{range $i, $e := 3}}{{end}}',
    err: 'template: t:1:18: executing "t" at <3>: can\'t use 3 to iterate over more than one variable',
  },
  {
    name: 'range string',
    input: '{{range .s}}{{end}}',
    data,
    err: 'template: t:1:8: executing "t" at <.s>: range can\'t iterate over str',
  },
  { name: 'break', input: '{{range .list}}{{if eq . 2}}{{break}}{{end}}{{.}}{{end}}', data, out: '1' },
  { name: 'continue', input: '{{range .list}}{{if eq . 2}}{{continue}}{{end}}{{.}}{{end}}', data, out: '13' },
  { name: 'break outside range', input: '{{break}}', err: 'template: t:1: {{break}} outside {{range}}' },
  {
    name: 'range null element dot',
    input: '{{range .mixed}}{{.}} {{end}}',
    data,
    out: '1 two <no value> [3] map[k:v] ',
  },
  {
    name: 'range element field of null',
    input: '{{range .mixed}}{{.k}}{{end}}',
    data,
    err: /can't evaluate field k in type interface \{\}/,
  },
  { name: 'range variables restored', input: '{{$x := 1}}{{range .list}}{{$x = .}}{{end}}{{$x}}', data, out: '3' },
  // Templates.
  { name: 'define and call', input: '{{define "a"}}A{{.}}{{end}}{{template "a" "x"}}', out: 'Ax' },
  { name: 'template without pipe', input: '{{define "a"}}{{.}}{{end}}{{template "a"}}', data: 'x', out: '<no value>' },
  {
    name: 'template not defined',
    input: '{{template "nope"}}',
    err: 'template: t:1:11: executing "t" at <{{template "nope"}}>: template "nope" not defined',
  },
  { name: 'block', input: '{{block "b" .}}[{{.}}]{{end}}', data: 'x', out: '[x]' },
  { name: 'template variables isolated', input: '{{define "a"}}{{$}}{{end}}{{$x := 1}}{{template "a" 5}}', out: '5' },
  {
    name: 'recursive template',
    input: '{{define "r"}}{{if .}}{{len .}}{{template "r" (slice . 1)}}{{end}}{{end}}{{template "r" .list}}',
    data,
    out: '321',
  },
  {
    name: 'duplicate define',
    input: '{{define "a"}}x{{end}}{{define "a"}}y{{end}}',
    err: 'template: t:1: template: multiple definition of template "a"',
  },
  {
    name: 'define inside action is an error',
    input: '{{if true}}{{define "a"}}{{end}}{{end}}',
    err: /unexpected <define> in command/,
  },
  // Pipelines.
  { name: 'pipe into function', input: '{{"x" | printf "%s-%s" "y"}}', out: 'y-x' },
  { name: 'parenthesized', input: '{{printf "%d" (len .list)}}', data, out: '3' },
  {
    name: 'non executable stage',
    input: '{{1 | 2}}',
    err: 'template: t:1: non executable command in pipeline stage 2',
  },
  {
    name: 'argument to non-function',
    input: '{{.s 1}}',
    data,
    err: 'template: t:1:2: executing "t" at <.s>: s is not a method but has arguments',
  },
  {
    name: 'argument to literal',
    input: '{{1 2}}',
    err: 'template: t:1:2: executing "t" at <1>: can\'t give argument to non-function 1',
  },
  { name: 'unknown function', input: '{{nope 1}}', err: 'template: t:1: function "nope" not defined' },
  { name: 'empty action', input: '{{}}', err: 'template: t:1: missing value for command' },
  { name: 'unclosed action', input: '{{.x', err: 'template: t:1: unclosed action' },
  { name: 'unexpected end', input: '{{end}}', err: 'template: t:1: unexpected {{end}}' },
  { name: 'unexpected EOF', input: '{{if true}}x', err: 'template: t:1: unexpected EOF' },
  { name: 'parse error line', input: 'a\nb\n{{if}}', err: 'template: t:3: missing value for if' },
  {
    name: 'exec error line and byte column',
    input: 'ab\né {{.s.x}}',
    data,
    err: 'template: t:2:7: executing "t" at <.s.x>: can\'t evaluate field x in type interface {}',
  },
  {
    name: 'long context truncated',
    input: '{{index .list 1 2 3 4 5 6 7 8}}',
    data,
    err: 'template: t:1:2: executing "t" at <index .list 1 2 3 4 ...>: error calling index: can\'t index item of type int',
  },
  // Builtins.
  { name: 'and returns deciding value', input: '{{and 1 0 2}} {{and 1 2}} {{or 0 "" "x"}} {{or 0 ""}}', out: '0 2 x ' },
  { name: 'and short-circuits', input: '{{and false (index .list 99)}}', data, out: 'false' },
  { name: 'or short-circuits', input: '{{or true (index .list 99)}}', data, out: 'true' },
  { name: 'and piped', input: '{{1 | and 2}}', out: '1' },
  { name: 'not', input: '{{not 0}} {{not "x"}} {{not .nope}}', data, out: 'true false true' },
  { name: 'len', input: '{{len "héllo"}} {{len .list}} {{len .map}}', data, out: '6 3 3' },
  {
    name: 'len of int',
    input: '{{len 3}}',
    err: 'template: t:1:2: executing "t" at <len 3>: error calling len: len of type int',
  },
  { name: 'len of null', input: '{{len .nul}}', data, err: /error calling len: len of nil pointer/ },
  { name: 'index list', input: '{{index .list 1}}', data, out: '2' },
  { name: 'index map', input: '{{index .map "b"}}', data, out: '2' },
  { name: 'index map missing', input: '{{index .map "z"}}', data, out: '<no value>' },
  { name: 'index nested', input: '{{index .mixed 3 0}}', data, out: '3' },
  { name: 'index string byte', input: '{{index "abc" 1}}', out: '98' },
  {
    name: 'index out of range',
    input: '{{index .list 3}}',
    data,
    err: /error calling index: reflect: slice index out of range/,
  },
  {
    name: 'index far out of range',
    input: '{{index .list 5}}',
    data,
    err: /error calling index: index out of range: 5/,
  },
  {
    name: 'index map with int',
    input: '{{index .map 1}}',
    data,
    err: /error calling index: value has type int; should be string/,
  },
  { name: 'index of nil', input: '{{index .nope 1}}', data, err: /error calling index: index of untyped nil/ },
  {
    name: 'slice list',
    input: '{{slice .list 1}} {{slice .list 1 2}} {{slice .list}}',
    data,
    out: '[2 3] [2] [1 2 3]',
  },
  { name: 'slice string', input: '{{slice "hello" 1 3}}', out: 'el' },
  { name: 'slice bad', input: '{{slice .list 2 1}}', data, err: /error calling slice: invalid slice index: 2 > 1/ },
  { name: 'slice 3-index string', input: '{{slice "abc" 0 1 2}}', err: /cannot 3-index slice a string/ },
  { name: 'eq', input: '{{eq 1 1}} {{eq "a" "b"}} {{eq 1 2 3 1}} {{eq .s "str"}}', data, out: 'true false true true' },
  {
    name: 'eq missing vs string',
    input: '{{eq .nope "x"}} {{eq .nope .nope2}} {{eq .nul nil}}',
    data,
    out: 'false true true',
  },
  {
    name: 'eq int float',
    input: '{{eq 1 1.5}}',
    err: 'template: t:1:2: executing "t" at <eq 1 1.5>: error calling eq: incompatible types for comparison',
  },
  { name: 'eq int string', input: '{{eq .i "17"}}', data, err: /incompatible types for comparison/ },
  {
    name: 'eq lists',
    input: '{{eq .list .list}}',
    data,
    err: /error calling eq: non-comparable type \[1 2 3\]: \[\]interface \{\}/,
  },
  { name: 'eq missing arg', input: '{{eq 1}}', err: /error calling eq: missing argument for comparison/ },
  { name: 'ne', input: '{{ne 1 2}} {{ne "a" "a"}}', out: 'true false' },
  { name: 'lt le gt ge', input: '{{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge 1.5 2.5}}', out: 'true true true false' },
  { name: 'lt bool', input: '{{lt true false}}', err: /error calling lt: invalid type for comparison/ },
  { name: 'lt missing', input: '{{lt .nope 1}}', data, err: /error calling lt: invalid type for comparison/ },
  { name: 'lt int float', input: '{{lt 1 2.0}}', err: /error calling lt: incompatible types for comparison/ },
  { name: 'print', input: '{{print 1 2 "a" "b" 3}}', out: '1 2ab3' },
  { name: 'print nil', input: '{{print nil}} {{print .nope}}', data, out: '<nil> <nil>' },
  { name: 'println', input: '{{println 1 "a"}}', out: '1 a\n' },
  { name: 'html', input: '{{html .html}}', data, out: '&lt;b&gt;&#34;x&#34;&lt;/b&gt;' },
  { name: 'html of args', input: '{{html 1 "<"}}', out: '1&lt;' },
  {
    name: 'js',
    input: '{{js "a\'b\\"c<d>&e=f\\\\ \\u0001é"}}',
    out: 'a\\\'b\\"c\\u003Cd\\u003E\\u0026e\\u003Df\\\\ \\u0001é',
  },
  { name: 'urlquery', input: '{{urlquery "a b&c=d/é"}}', out: 'a+b%26c%3Dd%2F%C3%A9' },
  {
    name: 'wrong arg count',
    input: '{{len 1 2}}',
    err: 'template: t:1:2: executing "t" at <len>: wrong number of args for len: want 1 got 2',
  },
  {
    name: 'wrong arg type',
    input: '{{printf 1}}',
    err: 'template: t:1:9: executing "t" at <1>: expected string; found 1',
  },
  {
    name: 'wrong value type',
    input: '{{printf .i}}',
    data,
    err: 'template: t:1:9: executing "t" at <.i>: wrong type for value; expected string; got int',
  },
  {
    name: 'invalid value',
    input: '{{.nope | printf}}',
    data,
    err: 'template: t:1:10: executing "t" at <printf>: invalid value; expected string',
  },
  { name: 'call of nil', input: '{{call .nope}}', data, err: /error calling call: call of nil/ },
  { name: 'call of non-function', input: '{{call .s}}', data, err: /error calling call: non-function of type string/ },
  { name: 'call function', input: '{{call .f "x"}}', data: { f: (a: unknown) => `got ${String(a)}` }, out: 'got x' },
  // Printing composite values.
  { name: 'print list', input: '{{.list}} {{.mixed}}', data, out: '[1 2 3] [1 two <nil> [3] map[k:v]]' },
  { name: 'print map sorted', input: '{{.map}}', data, out: 'map[a:1 b:2 c:3]' },
  { name: 'print empty', input: '{{.emptyList}} {{.emptyMap}}', data, out: '[] map[]' },
  { name: 'print bool', input: '{{.t}}', data, out: 'true' },
  // Limits.
  {
    name: 'output cap',
    input: '{{range 100}}0123456789{{end}}',
    opts: { maxOutputBytes: 500 },
    err: /output exceeds the limit of 500 bytes/,
  },
  {
    name: 'depth cap',
    input: '{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}',
    opts: { maxDepth: 50 },
    err: /exceeded maximum template depth \(50\)/,
  },
];

for (const c of cases) {
  test(c.name, () => {
    let got: string;
    try {
      got = parseTemplate('t', c.input, c.opts).execute('t', c.data);
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      if (c.err === undefined) assert.fail(`unexpected error: ${e.message}`);
      if (typeof c.err === 'string') assert.equal(e.message, c.err);
      else assert.match(e.message, c.err);
      return;
    }
    if (c.err !== undefined) assert.fail(`expected error ${String(c.err)}, got output ${JSON.stringify(got)}`);
    assert.equal(got, c.out);
  });
}

test('limit errors carry TPL_LIMIT', () => {
  assert.throws(
    () => parseTemplate('t', '{{range 10}}xxxxxxxxxx{{end}}', { maxOutputBytes: 20 }).execute('t', null),
    (e: unknown) => e instanceof TemplateError && e.code === 'TPL_LIMIT',
  );
});

test('deep recursion is a limit error, never a crash', () => {
  assert.throws(
    () =>
      parseTemplate('t', '{{define "r"}}{{template "r" .}}{{end}}{{template "r" .}}', { maxDepth: 1e9 }).execute(
        't',
        null,
      ),
    (e: unknown) => e instanceof TemplateError && e.code === 'TPL_LIMIT',
  );
});

test('execute unknown template', () => {
  assert.throws(() => parseTemplate('t', 'x').execute('u', null), {
    message: 'template: no template "u" associated with template "t"',
  });
});

test('later parse replaces definitions, empty ones do not', () => {
  const set = parseTemplate('a', '{{define "x"}}1{{end}}');
  set.parse('b', '{{define "x"}}2{{end}}');
  set.parse('c', '{{define "x"}}  {{end}}');
  assert.equal(set.execute('x', null), '2');
});

test('fuzz: any input fails only with TemplateError', async () => {
  const fc = (await import('fast-check')).default;
  const { profiles } = await import('./index.js');
  const tokens = [
    '{{',
    '}}',
    '{{-',
    '-}}',
    ' ',
    '.',
    '.a',
    '$',
    '$x',
    ':=',
    '=',
    '|',
    '(',
    ')',
    '"s"',
    '`r`',
    "'c'",
    '1',
    '-2.5',
    'if',
    'else',
    'end',
    'range',
    'with',
    'define',
    'template',
    'block',
    'break',
    'continue',
    'nil',
    'true',
    'and',
    'or',
    'not',
    'len',
    'index',
    'slice',
    'eq',
    'lt',
    'printf',
    '"%d %v"',
    'print',
    'html',
    'js',
    'call',
    'toYaml',
    'include',
    'tpl',
    'default',
    'list',
    'dict',
    'until',
    'regexFind',
    '"(?=x)"',
    'x',
    '\n',
    '/*',
    '*/',
    ',',
  ];
  const data = { a: [1, 'x', null, { b: 2 }], s: 'str', n: null };
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 30 }), (parts) => {
      const src = parts.join('');
      try {
        parseTemplate('t', src, { functions: profiles.helm, maxOutputBytes: 10000 }).execute('t', data);
      } catch (e) {
        if (!(e instanceof TemplateError) || e.message.includes('internal error'))
          throw new Error(`non-template error for ${JSON.stringify(src)}: ${String(e)}`);
      }
    }),
    { numRuns: 1500, seed: 42 },
  );
});

test('fuzz: single actions reach execution and fail only with TemplateError', async () => {
  const fc = (await import('fast-check')).default;
  const { profiles } = await import('./index.js');
  const words = [
    '.',
    '.a',
    '.s',
    '.n',
    '.a.b',
    '$',
    '"s"',
    '1',
    '-2.5',
    '0',
    'nil',
    'true',
    '(list 1 "x")',
    '(dict "k" 1)',
    '"%d %s %v %x %q"',
    'and',
    'or',
    'not',
    'len',
    'index',
    'slice',
    'eq',
    'ne',
    'lt',
    'ge',
    'printf',
    'print',
    'html',
    'js',
    'urlquery',
    'call',
    'toYaml',
    'toJson',
    'fromYaml',
    'include',
    'tpl',
    'default',
    'first',
    'rest',
    'keys',
    'merge',
    'until',
    'seq',
    'repeat',
    'indent',
    'trunc',
    'substr',
    'regexFind',
    'regexReplaceAll',
    '"a(b"',
    '"[[:alpha:]]"',
    'semver',
    'semverCompare',
    'date',
    'now',
    'b64dec',
    'sha256sum',
    'dig',
    'add',
    'div',
    'mulf',
    'divf',
    'round',
    '|',
  ];
  const data = { a: [1, 'x', null, { b: 2 }], s: 'str', n: null };
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }), (parts) => {
      const src = '{{ ' + parts.join(' ') + ' }}';
      try {
        parseTemplate('t', src, { functions: profiles.helm, maxOutputBytes: 10000 }).execute('t', data);
      } catch (e) {
        if (!(e instanceof TemplateError) || e.message.includes('internal error'))
          throw new Error(`non-template error for ${JSON.stringify(src)}: ${String(e)}`);
      }
    }),
    { numRuns: 3000, seed: 7 },
  );
});
