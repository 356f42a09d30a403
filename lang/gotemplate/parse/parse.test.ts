// Parser tables in the spirit of Go's parse_test.go: the tree printed back, or an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateError } from '../errors.js';
import { nodeString } from './node.js';
import { parse } from './parse.js';

const funcs = new Set(['printf', 'and', 'len', 'index', 'print']);
const opts = { hasFunction: (n: string) => funcs.has(n) };

function roundTrip(src: string): string {
  const trees = parse('t', src, opts);
  return nodeString(trees.get('t')!.root);
}

const ok: [string, string, string][] = [
  ['empty', '', ''],
  ['comment', '{{/*\n\n\n*/}}', ''],
  ['spaces', ' \t\n', ' \t\n'],
  ['field', '{{.X}}', '{{.X}}'],
  ['simple command', '{{printf}}', '{{printf}}'],
  ['$ invocation', '{{$}}', '{{$}}'],
  ['variable invocation', '{{with $x := 3}}{{$x 23}}{{end}}', '{{with $x := 3}}{{$x 23}}{{end}}'],
  ['variable with fields', '{{$.I}}', '{{$.I}}'],
  ['multi-word command', '{{printf `%d` 23}}', '{{printf `%d` 23}}'],
  ['pipeline', '{{.X|.Y}}', '{{.X | .Y}}'],
  ['pipeline with decl', '{{$x := .X|.Y}}', '{{$x := .X | .Y}}'],
  ['nested pipeline', '{{.X (.Y .Z) (.A | .B .C) (.E)}}', '{{.X (.Y .Z) (.A | .B .C) (.E)}}'],
  ['field applied to parentheses', '{{(.Y .Z).Field}}', '{{(.Y .Z).Field}}'],
  ['simple if', '{{if .X}}hello{{end}}', '{{if .X}}hello{{end}}'],
  ['if with else', '{{if .X}}true{{else}}false{{end}}', '{{if .X}}true{{else}}false{{end}}'],
  ['if with else if', '{{if .X}}true{{else if .Y}}false{{end}}', '{{if .X}}true{{else}}{{if .Y}}false{{end}}{{end}}'],
  [
    'if else chain',
    '+{{if .X}}X{{else if .Y}}Y{{else if .Z}}Z{{end}}+',
    '+{{if .X}}X{{else}}{{if .Y}}Y{{else}}{{if .Z}}Z{{end}}{{end}}{{end}}+',
  ],
  ['with else with', '{{with .X}}a{{else with .Y}}b{{end}}', '{{with .X}}a{{else}}{{with .Y}}b{{end}}{{end}}'],
  ['simple range', '{{range .X}}hello{{end}}', '{{range .X}}hello{{end}}'],
  ['chained field range', '{{range .X.Y.Z}}hello{{end}}', '{{range .X.Y.Z}}hello{{end}}'],
  [
    'nested range',
    '{{range .X}}hello{{range .Y}}goodbye{{end}}{{end}}',
    '{{range .X}}hello{{range .Y}}goodbye{{end}}{{end}}',
  ],
  ['range with else', '{{range .X}}true{{else}}false{{end}}', '{{range .X}}true{{else}}false{{end}}'],
  ['range over pipeline', '{{range .X|.M}}true{{else}}false{{end}}', '{{range .X | .M}}true{{else}}false{{end}}'],
  ['range with $x', '{{range $x := .SI}}{{.}}{{end}}', '{{range $x := .SI}}{{.}}{{end}}'],
  ['range 2 vars', '{{range $x, $y := .SI}}{{.}}{{end}}', '{{range $x, $y := .SI}}{{.}}{{end}}'],
  ['range with break', '{{range .SI}}{{.}}{{break}}{{end}}', '{{range .SI}}{{.}}{{break}}{{end}}'],
  ['range with continue', '{{range .SI}}{{.}}{{ continue }}{{end}}', '{{range .SI}}{{.}}{{continue}}{{end}}'],
  ['constants', "{{range .SI 1 -3.2 true false 'a' nil}}{{end}}", "{{range .SI 1 -3.2 true false 'a' nil}}{{end}}"],
  ['template', '{{template `x`}}', '{{template "x"}}'],
  ['template with arg', '{{template `x` .Y}}', '{{template "x" .Y}}'],
  ['with', '{{with .X}}hello{{end}}', '{{with .X}}hello{{end}}'],
  ['with with else', '{{with .X}}hello{{else}}goodbye{{end}}', '{{with .X}}hello{{else}}goodbye{{end}}'],
  ['trim left', 'x \r\n\t{{- 3}}', 'x{{3}}'],
  ['trim right', '{{3 -}}\n\n\ty', '{{3}}y'],
  ['trim left and right', 'x \r\n\t{{- 3 -}}\n\n\ty', 'x{{3}}y'],
  ['trim with extra spaces', 'x\n{{-  3   -}}\ny', 'x{{3}}y'],
  ['comment trim left', 'x \r\n\t{{- /* hi */}}', 'x'],
  ['comment trim right', '{{/* hi */ -}}\n\n\ty', 'y'],
  ['comment trim left and right', 'x \r\n\t{{- /* */ -}}\n\n\ty', 'xy'],
  ['block definition', '{{block "foo" .}}hello{{end}}', '{{template "foo" .}}'],
  ['newline in assignment', '{{ $x \n := \n 1 \n }}', '{{$x := 1}}'],
  ['newline in pipeline', '{{\n"x"\n|\nprintf\n}}', '{{"x" | printf}}'],
  ['newline in comment', '{{/*\nhello\n*/}}', ''],
  ['newline in trimmed comment', '{{-\n/*\nhello\n*/\n-}}', ''],
  ['assignment', '{{$x := 1}}{{$x = 2}}', '{{$x := 1}}{{$x = 2}}'],
];

for (const [name, src, want] of ok) test(`parse: ${name}`, () => assert.equal(roundTrip(src), want));

const bad: [string, string, string | RegExp][] = [
  ['unclosed action', 'hello{{range', 'template: t:1: unclosed action'],
  ['unmatched end', '{{end}}', 'template: t:1: unexpected {{end}}'],
  ['unmatched else', '{{else}}', 'template: t:1: unexpected {{else}}'],
  ['unmatched else after if', '{{if .X}}hello{{end}}{{else}}', 'template: t:1: unexpected {{else}}'],
  ['multiple else', '{{if .X}}1{{else}}2{{else}}3{{end}}', 'template: t:1: expected end; found {{else}}'],
  ['missing end', 'hello{{range .x}}', 'template: t:1: unexpected EOF'],
  ['missing end after else', 'hello{{range .x}}{{else}}', 'template: t:1: unexpected EOF'],
  ['undefined function', 'hello{{undefined}}', 'template: t:1: function "undefined" not defined'],
  ['undefined variable', '{{$x}}', 'template: t:1: undefined variable "$x"'],
  ['variable undefined after end', '{{with $x := 4}}{{end}}{{$x}}', 'template: t:1: undefined variable "$x"'],
  ['variable undefined in template', '{{template $v}}', 'template: t:1: unexpected "$v" in template clause'],
  ['declare with field', '{{with $x.Y := 4}}{{end}}', 'template: t:1: undefined variable "$x"'],
  ['template with field ref', '{{template .X}}', 'template: t:1: unexpected ".X" in template clause'],
  ['invalid punctuation', '{{printf 3, 4}}', 'template: t:1: unexpected "," in operand'],
  ['multidecl outside range', '{{with $v, $u := 3}}{{end}}', 'template: t:1: too many declarations in with'],
  ['too many decls in range', '{{range $u, $v, $w := 3}}{{end}}', 'template: t:1: too many declarations in range'],
  ['dot applied to parentheses', '{{printf (printf .).}}', /unexpected/],
  ['adjacent args', '{{printf 3`x`}}', 'template: t:1: unexpected "`x`" in operand'],
  ['adjacent args with .', '{{printf `x`.}}', /unexpected/],
  ['extra end after if', '{{if .X}}a{{else if .Y}}b{{end}}{{end}}', 'template: t:1: unexpected {{end}}'],
  ['wrong pipeline dot', '{{12|.}}', 'template: t:1: non executable command in pipeline stage 2'],
  ['wrong pipeline number', '{{.|12|printf}}', 'template: t:1: non executable command in pipeline stage 2'],
  ['wrong pipeline string', '{{.|printf|"error"}}', 'template: t:1: non executable command in pipeline stage 3'],
  ['wrong pipeline char', "{{12|printf|'e'}}", 'template: t:1: non executable command in pipeline stage 3'],
  ['wrong pipeline boolean', '{{.|true}}', 'template: t:1: non executable command in pipeline stage 2'],
  ['wrong pipeline nil', "{{'c'|nil}}", 'template: t:1: non executable command in pipeline stage 2'],
  ['empty pipeline', '{{printf "%d" ( ) }}', 'template: t:1: missing value for parenthesized pipeline'],
  ['block without pipeline', '{{block "foo"}}hello{{end}}', 'template: t:1: missing value for block clause'],
  ['newline in empty action', '{{\n}}', 'template: t:2: missing value for command'],
  ['unclosed paren', '{{(1}}', 'template: t:1: unclosed left paren'],
  ['unexpected paren', '{{1)}}', 'template: t:1: unexpected right paren'],
  ['bad character', '{{.X#}}', /bad character U\+0023 '#'/],
  ['unterminated raw string', '{{`x}}', 'template: t:1: unterminated raw quoted string'],
  ['unterminated char', "{{'a}}", 'template: t:1: unterminated character constant'],
  [
    'multi-line action error names its start line',
    '{{with .X}}\n{{printf\n"x"\n',
    /template: t:\d+: unclosed action started at t:2/,
  ],
];

for (const [name, src, want] of bad) {
  test(`parse error: ${name}`, () => {
    assert.throws(
      () => parse('t', src, opts),
      (e: unknown) => {
        assert.ok(e instanceof TemplateError, String(e));
        if (typeof want === 'string') assert.equal(e.message, want);
        else assert.match(e.message, want);
        return true;
      },
    );
  });
}
