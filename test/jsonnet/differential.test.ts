// Differential test: programs of our own run through our engine and through
// the C++ oracle /usr/bin/jsonnet (v0.18); the output text must be identical.
// Programs stay within what both versions implement the same way (no math
// functions whose last digit differs between libm implementations, no std
// functions newer than v0.18). Skipped when the binary is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SourceFile, evaluateToString, parseModule } from '../../lang/jsonnet/index.js';

const ORACLE = '/usr/bin/jsonnet';

const programs: string[] = [
  // literals and numbers
  'null',
  'true',
  '[false, null, 0, -0.5]',
  '42',
  '[-17.25]',
  '1e3',
  '2.5e-3',
  '0.1 + 0.2',
  '1 / 3',
  '2 / 3 * 3',
  '123456789012',
  '1e15 + 0.3',
  '[1e-5, 1.5e-7, 33.333]',
  '9007199254740993',
  '[-1e21]',
  // strings
  '"tab\\tnew\\nquote\\"back\\\\"',
  '"\\u0001\\u007f\\u0080\\u009f\\u00a0"',
  '"é€😀"',
  "'single' + @'verb''atim'",
  '|||\n  block\n    indented\n\n  after blank\n|||',
  '"a" + 1 + [2] + {b: 3}',
  'std.length("😀é")',
  '"abc"[1]',
  '"%d items at %.2f each, %s" % [3, 1.5, "ok"]',
  '"%5s|%-5s|%05d|%x|%o|%e" % ["a", "b", 42, 255, 8, 12345.678]',
  '"%(a)s-%(b)d" % {a: "x", b: 2}',
  'std.format("%c%c", [65, "B"])',
  // arrays
  '[]',
  '[[]]',
  '[[1, [2, [3]]], {}]',
  'std.range(1, 5)[1:4]',
  '[1, 2, 3, 4, 5, 6][::2]',
  '[x * x for x in std.range(1, 6) if x % 2 == 0]',
  '[[x, y] for x in [1, 2] for y in ["a", "b"]]',
  'std.map(function(x) x + 1, [1, 2])',
  'std.filter(function(x) x > 1, [1, 2, 3])',
  'std.foldl(function(a, b) a + [b], [1, 2, 3], [])',
  'std.foldr(function(a, b) b + [a], [1, 2, 3], [])',
  'std.sort(["b", "a", "C", "é"])',
  'std.sort([3, 1, 2], function(x) -x)',
  'std.uniq([1, 1, 2, 3, 3])',
  'std.set([3, 1, 1, 2])',
  'std.setUnion([1, 3], [2, 3])',
  'std.setInter([1, 2, 3], [2, 3, 4])',
  'std.setDiff([1, 2, 3], [2])',
  'std.setMember(2, [1, 2, 3])',
  'std.join(", ", ["a", "b"])',
  'std.join([0], [[1], [2]])',
  'std.reverse([1, 2, 3])',
  'std.member([1, 2], 2)',
  'std.count([1, 2, 1], 1)',
  'std.flattenArrays([[1], [2, [3]]])',
  'std.makeArray(3, function(i) i * i)',
  'std.mapWithIndex(function(i, x) i + x, [10, 20])',
  'std.filterMap(function(x) x > 1, function(x) x * 10, [1, 2, 3])',
  'std.repeat("ab", 3)',
  'std.repeat([1], 2)',
  '[1, 2] < [1, 3]',
  '[1, 2] == [1, 2]',
  'std.find(2, [1, 2, 2])',
  // objects
  '{}',
  '{a: 1, b: {c: [1, {d: null}]}}',
  '{z: 1, a: 2, m: 3}',
  '{a: 1, b:: 2, c::: 3}',
  '{a:: 1} + {a: 2}',
  '{a: 1, b: self.a + 1} + {a: 10}',
  '{a: {x: 1}} + {a+: {y: 2}}',
  '{a: [1]} + {a+: [2]}',
  '{a: "x"} + {a+: "y"}',
  '{a: 1} + {b: super.a}',
  '{x: 1} + {y: "x" in super}',
  'local o = {a: 1, f(x):: x + self.a}; o.f(1)',
  '{[k]: std.length(k) for k in ["aa", "b"]}',
  '{local l = 5, a: l, b: $.a}',
  '{a: {b: $.c}, c: 1}',
  'std.objectFields({b: 1, a: 2, h:: 3})',
  'std.objectFieldsAll({b: 1, h:: 3})',
  'std.objectHas({a: 1}, "a")',
  'std.objectHasAll({a:: 1}, "a")',
  'std.objectValues({a: 1, b: 2})',
  'std.mergePatch({a: 1, b: {c: 2}}, {a: null, b: {d: 3}})',
  'std.prune({a: null, b: [], c: {}, d: [null, 1]})',
  'std.mapWithKey(function(k, v) k + v, {a: "1"})',
  'std.get({a: 1}, "b", 5)',
  '{"key with space": 1, "ü": 2, "\\n": 3}',
  '{a: 1} == {a: 1}',
  'std.length({a: 1, b:: 2})',
  // functions and control flow
  'local f(a, b=2, c=a + b) = [a, b, c]; [f(1), f(1, 3), f(c=0, a=5)]',
  'local fib(n) = if n < 2 then n else fib(n - 1) + fib(n - 2); fib(15)',
  '(function(x) function(y) x * y)(3)(4)',
  'local sum(n, acc) = if n == 0 then acc else sum(n - 1, acc + n) tailstrict; sum(1000, 0)',
  'if 1 > 2 then "a" else if 2 > 1 then "b"',
  'if false then 1',
  'assert 1 < 2 : "no"; "yes"',
  'std.type(function() 1) + std.type(null)',
  // operators
  '[5 % 3, -5 % 3, 5.5 % 2]',
  '[7 & 3, 7 | 8, 7 ^ 2, ~7, 1 << 10, 1024 >> 3]',
  '[!true, -(-1), +1]',
  '["a" < "b", "b" <= "a", "é" > "z"]',
  '[1 == 1.0, "1" == 1, null == null, [] == {}]',
  '"a" in {a: 1}',
  '{a: 1} == {a: 1, b:: 2}',
  // std odds and ends
  'std.toString([1, "a", {b: null}])',
  'std.escapeStringJson("a\\"b\\n")',
  'std.manifestJson({a: [1, 2], b: {}})',
  'std.manifestJsonEx({a: [1, {b: 2}]}, "  ")',
  'std.manifestYamlDoc({a: [1, "two", {c: null}], b: "multi\\nline"})',
  'std.manifestYamlStream([{a: 1}, [2]])',
  'std.manifestIni({main: {a: 1}, sections: {s: {b: "x"}}})',
  'std.manifestPython({a: [true, null, "s"]})',
  'std.manifestXmlJsonml(["a", {href: "x"}, "text", ["b"]])',
  'std.base64("hello"), std.base64Decode("aGVsbG8=")'.replace(', ', ' + '),
  'std.md5("abc")',
  'std.parseInt("-42") + std.parseHex("ff") + std.parseOctal("17")',
  'std.split("a,b,,c", ",")',
  'std.splitLimit("a,b,c", ",", 1)',
  'std.strReplace("aXbXc", "X", "--")',
  'std.asciiUpper("abcÉ")',
  'std.substr("hello", 1, 3)',
  'std.startsWith("hello", "he") && std.endsWith("hello", "lo")',
  'std.stringChars("héllo")',
  'std.codepoint("é") + std.length(std.char(233))',
  'std.lstripChars("xxaxx", "x") + std.rstripChars("xxaxx", "x")',
  'std.findSubstr("a", "banana")',
  'std.encodeUTF8("é")',
  'std.decodeUTF8([104, 105])',
  'std.parseJson("{\\"a\\": [1, 2.5, null]}")',
  'std.lines(["a", "b"])',
  'std.deepJoin(["a", ["b", ["c"]]])',
  'std.abs(-3) + std.sign(-2) + std.max(1, 2) + std.min(1, 2)',
  'std.floor(2.7) + std.ceil(2.1) + std.pow(2, 10) + std.sqrt(16)',
  '[std.mantissa(8), std.exponent(8)]',
  'std.modulo(7, 3)',
  'std.equals([1], [1])',
  'std.primitiveEquals(1, 1)',
];

test('our output equals the C++ jsonnet oracle', (t) => {
  if (!existsSync(ORACLE)) {
    t.skip('no /usr/bin/jsonnet');
    return;
  }
  assert.ok(programs.length >= 60);
  const mismatches: string[] = [];
  for (const code of programs) {
    let want: string;
    try {
      want = execFileSync(ORACLE, ['-e', code], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10000,
      });
    } catch {
      mismatches.push(`oracle failed on ${code}`);
      continue;
    }
    let got: string;
    try {
      got = evaluateToString(parseModule(new SourceFile('<cmdline>', code))) as string;
    } catch (e) {
      got = `ERROR ${String(e)}`;
    }
    if (got !== want) mismatches.push(`${code}\n  want ${JSON.stringify(want)}\n  got  ${JSON.stringify(got)}`);
  }
  assert.deepEqual(mismatches, []);
});
