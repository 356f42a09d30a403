/**
 * RE2 syntax and Go regexp semantics, with expectations taken from Go's
 * documented behaviour (regexp/syntax docs, Regexp.Expand, ReplaceAll*).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileGoRegexp,
  goFindAll,
  goMatchString,
  goQuoteMeta,
  goReplaceAll,
  goReplaceAllString,
  goSplit,
} from './go-regexp.js';
import { Re2SyntaxError } from './re2-parse.js';

const matchCases: [string, string, boolean][] = [
  ['^v[0-9]+$', 'v12', true],
  ['^v[0-9]+$', 'v12\n', false], // $ is end of text, not before a final newline
  ['(?m)^b$', 'a\nb\nc', true],
  ['(?m)^b$', 'a\r\nb\r\nc', false], // only \n ends lines
  ['a.c', 'a\nc', false],
  ['(?s)a.c', 'a\nc', true],
  ['a.c', 'a\rc', true], // . excludes only \n
  ['(?i)HeLLo', 'say hello', true],
  ['(?i)k', '\u212a', true], // Kelvin sign folds to k
  ['(?i:a)b', 'AB', false],
  ['(?i:a)b', 'Ab', true],
  ['(a(?i)b)c', 'aBc', true],
  ['(a(?i)b)c', 'aBC', false], // flags end with their group
  ['\\s', '\u00a0', false], // \s is ASCII
  ['\\w', 'é', false],
  ['\\bfoo\\b', 'a foo.', true],
  ['\\pL+$', 'héllo', true],
  ['\\p{Greek}', 'λ', true],
  ['\\P{Greek}', 'λ', false],
  ['\\p{^Greek}', 'a', true],
  ['[[:alpha:]]+', '123', false],
  ['[[:^alpha:]]', 'a1', true],
  ['[^a]', '\n', true],
  ['\\x41\\x{42}\\103', 'ABC', true],
  ['\\Qa.b\\E+', 'a.bbb', true],
  ['\\Qa.b\\E', 'axb', false],
  ['^*a', 'a', true], // Go allows repeating an empty-width assertion
  ['\\Aab\\z', 'ab', true],
  ['x{2,3}', 'xx', true],
  ['x{,3}', 'x{,3}', true], // not a repeat: literal text
  ['\\_', '_', true],
  ['😀+', '😀😀', true],
  ['[😀-😂]', '😁', true],
];

test('MatchString', () => {
  for (const [pattern, subject, want] of matchCases)
    assert.equal(goMatchString(pattern, subject), want, `${pattern} ~ ${JSON.stringify(subject)}`);
});

const errorCases: [string, string][] = [
  ['(', 'missing closing ): `(`'],
  ['a)', 'unexpected ): `a)`'],
  ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
  ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
  ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
  ['(?P<a-b>x)', 'invalid named capture: `(?P<a-b>`'],
  ['(?P=a)', 'invalid or unsupported Perl syntax: `(?P`'],
  ['\\1', 'invalid escape sequence: `\\1`'],
  ['\\Z', 'invalid escape sequence: `\\Z`'],
  ['\\C', 'invalid escape sequence: `\\C`'],
  ['\\xZZ', 'invalid escape sequence: `\\xZZ`'],
  ['a**', 'invalid nested repetition operator: `**`'],
  ['a*?+', 'invalid nested repetition operator: `*?+`'],
  ['*a', 'missing argument to repetition operator: `*`'],
  ['(|*)', 'missing argument to repetition operator: `*`'],
  ['a{1001}', 'invalid repeat count: `{1001}`'],
  ['a{2,1}', 'invalid repeat count: `{2,1}`'],
  ['(a{500}){3}', 'invalid repeat count: `{3}`'],
  ['[z-a]', 'invalid character class range: `z-a`'],
  ['[a', 'missing closing ]: `[a`'],
  ['x[]', 'missing closing ]: `[]`'],
  ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
  ['\\pX', 'invalid character class range: `\\pX`'],
  ['\\p{Nope}', 'invalid character class range: `\\p{Nope}`'],
  ['\\p{Grek}', 'invalid character class range: `\\p{Grek}`'], // script codes are not Go names
  ['\\p{Zzzz}', 'invalid character class range: `\\p{Zzzz}`'],
  ['a\\', 'trailing backslash at end of expression: ``'],
  ['(?i', 'invalid or unsupported Perl syntax: `(?i`'],
  ['(?-)', 'invalid or unsupported Perl syntax: `(?-)`'],
];

test('compile errors carry Go wording', () => {
  for (const [pattern, message] of errorCases) {
    assert.throws(
      () => goMatchString(pattern, ''),
      (e: unknown) => e instanceof Re2SyntaxError && e.message === `error parsing regexp: ${message}`,
      pattern,
    );
  }
});

const replaceCases: [string, string, string, string][] = [
  ['a*', 'baaac', 'X', 'XbXcX'], // no empty match right after a match
  ['b*', 'abc', '-', '-a-c-'],
  ['', 'abc', '-', '-a-b-c-'],
  ['', '😀', '-', '-😀-'],
  ['(\\w+)@(\\w+)', 'bob@example', '$2 at ${1}', 'example at bob'],
  ['(\\w+)@', 'bob@', '$1x', ''], // $1x names group "1x", which does not exist
  ['(\\w+)@', 'bob@', '${1}x', 'bobx'],
  ['(?P<user>\\w+)@', 'bob@', '<$user>', '<bob>'],
  ['(a)(b)?', 'a', '[$2]', '[]'],
  ['a', 'a', '$$ ${} $', '$ ${} $'],
  ['(?U)a+', 'aaa', 'X', 'XXX'],
  ['(?U)a+?', 'aaa', 'X', 'X'],
  ['x', '😀x😀', 'y', '😀y😀'],
];

test('ReplaceAllString', () => {
  for (const [pattern, src, repl, want] of replaceCases)
    assert.equal(goReplaceAllString(pattern, src, repl), want, `${pattern} / ${repl}`);
});

test('a long literal pattern is accepted, as Go accepts it', () => {
  const long = 'x'.repeat(200000);
  assert.equal(goMatchString(long, `a${long}b`), true);
  assert.equal(goMatchString(long, long.slice(1)), false);
});

// Patterns that make a backtracking matcher run for exponential time; RE2's answer is linear.
const catastrophic: [string, string, boolean][] = [
  ['^(a+)+$', `${'a'.repeat(10000)}!`, false],
  ['^(a+)+$', 'a'.repeat(10000), true],
  ['(x+x+)+y', 'x'.repeat(5000), false],
  ['^(a|aa)*$', `${'a'.repeat(10000)}b`, false],
  ['^(\\w+\\s?)*$', `${'word '.repeat(2000)}!`, false],
  ['(.*a){12}', 'a'.repeat(5000), true],
];

test('catastrophic patterns answer in linear time', () => {
  for (const [pattern, subject, want] of catastrophic)
    assert.equal(goMatchString(pattern, subject), want, `${pattern} on ${subject.length} characters`);
  assert.equal(goReplaceAllString('(a+)+$', `${'a'.repeat(10000)}!`, 'x'), `${'a'.repeat(10000)}!`);
});

// Go's regexp package examples (FindAllString, FindAllStringSubmatchIndex, Split, ReplaceAll*).
test('FindAll', () => {
  const all = (pattern: string, s: string, n: number) =>
    goFindAll(compileGoRegexp(pattern), s, n).map((m) => s.slice(m[0], m[1]));
  assert.deepEqual(all('a.', 'paranormal', -1), ['ar', 'an', 'al']);
  assert.deepEqual(all('a.', 'paranormal', 2), ['ar', 'an']);
  assert.deepEqual(all('a.', 'graal', -1), ['aa']);
  assert.deepEqual(all('a.', 'none', -1), []);
  assert.deepEqual(all('a*', 'baaac', -1), ['', 'aaa', '']); // not the empty match right after aaa
  assert.deepEqual(all('é.', 'aébéc😀', -1), ['éb', 'éc']);
  assert.deepEqual(all('', '😀é', -1), ['', '', '']); // one empty match per code point boundary
  assert.deepEqual(all('a|ab', 'ab', -1), ['a']); // leftmost-first, not leftmost-longest
  assert.deepEqual(all('a*?', 'aa', -1), ['', '', '']);
  assert.deepEqual(all('(?U)a+', 'aaa', -1), ['a', 'a', 'a']);
  assert.deepEqual(all('(?i)σ+', 'ΣσςX', -1), ['Σσς']);
  assert.deepEqual(all('\\bfoo', 'xfoo foo', -1), ['foo']); // text before the search position counts
  const index = (s: string) => goFindAll(compileGoRegexp('a(x*)b'), s, -1);
  assert.deepEqual(index('-ab-'), [[1, 3, 2, 2]]);
  assert.deepEqual(index('-axxb-'), [[1, 5, 2, 4]]);
  assert.deepEqual(index('-ab-axb-'), [
    [1, 3, 2, 2],
    [4, 7, 5, 6],
  ]);
  assert.deepEqual(index('-axxb-ab-'), [
    [1, 5, 2, 4],
    [6, 8, 7, 7],
  ]);
  assert.deepEqual(goFindAll(compileGoRegexp('(a)|b'), 'b', -1), [[0, 1, -1, -1]]);
});

test('Split', () => {
  const cases: [string, string, number, string[]][] = [
    ['a', 'banana', -1, ['b', 'n', 'n', '']],
    ['a', 'banana', 0, []],
    ['a', 'banana', 1, ['banana']],
    ['a', 'banana', 2, ['b', 'nana']],
    ['z+', 'pizza', -1, ['pi', 'a']],
    ['z+', 'pizza', 2, ['pi', 'a']],
    ['', 'abc', -1, ['a', 'b', 'c']],
    ['x*', '', -1, ['']],
    ['', '', -1, []],
    [',', 'é,😀', -1, ['é', '😀']],
  ];
  for (const [pattern, s, n, want] of cases) assert.deepEqual(goSplit(pattern, s, n), want, `${pattern} ${s} ${n}`);
});

test('ReplaceAll and ReplaceAllLiteral follow the regexp examples', () => {
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', 'T'), '-T-T-');
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', '$1'), '--xx-');
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', '$1W'), '---');
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', '${1}W'), '-W-xxW-');
  assert.equal(goReplaceAll('a(?P<1W>x*)b', '-ab-axxb-', '$1W'), '--xx-');
  assert.equal(goReplaceAll('a(?P<1W>x*)b', '-ab-axxb-', '${1}W'), '-W-xxW-');
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', '$1', true), '-$1-$1-');
  assert.equal(goReplaceAll('a(x*)b', '-ab-axxb-', '${1}', true), '-${1}-${1}-');
  assert.equal(goReplaceAll('(?P<x>.)', 'ab', '[$xé|${x}é]'), '[|aé][|bé]'); // a name runs over letters, digits and _
  assert.equal(goReplaceAll('x*', 'é😀', '-'), '-é-😀-');
  assert.equal(goReplaceAll('(\\w)(\\w)', 'ab', '$2$1$0$3'), 'baab');
});

test('classes keep Go meaning on the linear engine', () => {
  const cases: [string, string, boolean][] = [
    ['^\\pL+$', 'Grüße', true],
    ['^\\PL+$', 'Grüße', false],
    ['^[\\p{Greek}\\d]+$', 'λ1μ2', true],
    ['^[^\\p{Greek}]$', '😀', true],
    ['^[[:alpha:]]+$', 'abé', false], // POSIX classes are ASCII
    ['^\\p{Any}$', '😀', true],
    ['^[^\\x{0}-\\x{10FFFF}]', 'a', false],
    ['^.$', '😀', true], // one code point, two UTF-16 units
    ['^..$', '😀', false],
    ['(?i)^straße$', 'STRASSE', false], // simple folding only, as Go
    ['(?i)^ǅ$', 'ǆ', true],
    ['^\\p{Letter}+$', 'Größe', true], // Go 1.25 category aliases, compared as Go canonicalises names
    ['^\\p{cased letter}$', 'a', true],
    ['^\\p{Decimal_Number}$', '٣', true],
    ['^\\p{greek}$', 'λ', true],
    ['^\\p{Old_Italic}$', '\u{10300}', true],
    ['^\\p{Cn}$', '\u{50000}', true],
    ['^\\p{Assigned}$', '\u{50000}', false],
    ['(?i)^\\p{Lu}$', 'a', true], // under (?i) a cased-letter category takes every cased letter
  ];
  for (const [pattern, subject, want] of cases)
    assert.equal(goMatchString(pattern, subject), want, `${pattern} ~ ${subject}`);
});

test('QuoteMeta', () => {
  assert.equal(goQuoteMeta('1.5*[x]{y}$^|\\ -'), '1\\.5\\*\\[x\\]\\{y\\}\\$\\^\\|\\\\ -');
  const quoted = goQuoteMeta('a.b*c');
  assert.equal(goMatchString(`^${quoted}$`, 'a.b*c'), true);
  assert.equal(goMatchString(`^${quoted}$`, 'aXbbc'), false);
});
