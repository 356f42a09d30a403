/**
 * RE2 syntax and Go regexp semantics, with expectations taken from Go's
 * documented behaviour (regexp/syntax docs, Regexp.Expand, ReplaceAll*).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goMatchString, goQuoteMeta, goReplaceAllString } from './go-regexp.js';
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

test('patterns too large for V8 are refused, not crashing', () => {
  const huge = 'x'.repeat(200000);
  assert.throws(
    () => goMatchString(huge, 'x'),
    (e: unknown) => e instanceof Re2SyntaxError && e.code === 'expression too large',
  );
});

test('QuoteMeta', () => {
  assert.equal(goQuoteMeta('1.5*[x]{y}$^|\\ -'), '1\\.5\\*\\[x\\]\\{y\\}\\$\\^\\|\\\\ -');
  const quoted = goQuoteMeta('a.b*c');
  assert.equal(goMatchString(`^${quoted}$`, 'a.b*c'), true);
  assert.equal(goMatchString(`^${quoted}$`, 'aXbbc'), false);
});
