// The fast scanner: token kinds, offsets and texts, go-jsonnet's lexing
// errors with their offsets, interning, and growth past the first guess of
// the token count. `lex` (the token-object API) is checked against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError } from './errors.js';
import { hashString, Interner } from './interner.js';
import { lex } from './lexer.js';
import { scanTokens } from './scanner.js';
import { KIND_NAMES, kindCode, T_IDENTIFIER } from './token-kinds.js';

function tokens(code: string): string[] {
  const b = scanTokens(new SourceFile('t', code));
  const out: string[] = [];
  for (let i = 0; i < b.count; i++) {
    const text = b.data[i] === '' ? '' : `(${b.data[i]})`;
    out.push(`${KIND_NAMES[b.kinds[i]!]}${text}@${b.starts[i]}-${b.ends[i]}`);
  }
  return out;
}

const scanned: [string, string[]][] = [
  ['', ['end of file@0-0']],
  ['{a: 1}', ['{@0-1', 'IDENTIFIER(a)@1-2', 'OPERATOR(:)@2-3', 'NUMBER(1)@4-5', '}@5-6', 'end of file@6-6']],
  [
    'local x = self;',
    ['local@0-5', 'IDENTIFIER(x)@6-7', 'OPERATOR(=)@8-9', 'self@10-14', ';@14-15', 'end of file@15-15'],
  ],
  ['a+-b', ['IDENTIFIER(a)@0-1', 'OPERATOR(+)@1-2', 'OPERATOR(-)@2-3', 'IDENTIFIER(b)@3-4', 'end of file@4-4']],
  ['x !=-1', ['IDENTIFIER(x)@0-1', 'OPERATOR(!=)@2-4', 'OPERATOR(-)@4-5', 'NUMBER(1)@5-6', 'end of file@6-6']],
  ['$.a', ['$@0-1', '.@1-2', 'IDENTIFIER(a)@2-3', 'end of file@3-3']],
  ['a +:: b', ['IDENTIFIER(a)@0-1', 'OPERATOR(+::)@2-5', 'IDENTIFIER(b)@6-7', 'end of file@7-7']],
  ['1 +// c\n2', ['NUMBER(1)@0-1', 'OPERATOR(+)@2-3', 'NUMBER(2)@8-9', 'end of file@9-9']],
  ['# only a comment', ['end of file@16-16']],
  ['/* a */ 1 /**/', ['NUMBER(1)@8-9', 'end of file@14-14']],
  ['0.5e-3 10 0', ['NUMBER(0.5e-3)@0-6', 'NUMBER(10)@7-9', 'NUMBER(0)@10-11', 'end of file@11-11']],
  ['01', ['NUMBER(0)@0-1', 'NUMBER(1)@1-2', 'end of file@2-2']],
  [`"a\\"b" 'c'`, ['STRING_DOUBLE(a\\"b)@0-6', 'STRING_SINGLE(c)@7-10', 'end of file@10-10']],
  [`@"x""y" @'z'`, ['VERBATIM_STRING_DOUBLE(x"y)@0-7', 'VERBATIM_STRING_SINGLE(z)@8-12', 'end of file@12-12']],
  ['|||\n  a\n   b\n\n|||', ['STRING_BLOCK(a\n b\n\n)@0-17', 'end of file@17-17']],
  ['|||-\n  a\n|||', ['STRING_BLOCK(a)@0-12', 'end of file@12-12']],
  [
    'importstr importbin import in',
    ['importstr@0-9', 'importbin@10-19', 'import@20-26', 'in@27-29', 'end of file@29-29'],
  ],
];

test('scans tokens with kinds, texts and offsets', () => {
  for (const [code, want] of scanned) assert.deepEqual(tokens(code), want, code);
});

function lexError(code: string): string {
  try {
    scanTokens(new SourceFile('t', code));
  } catch (e) {
    assert.ok(e instanceof JsonnetError, code);
    return `${e.span!.start} ${e.message}`;
  }
  return 'no error';
}

const errors: [string, string][] = [
  ['"abc', '0 Unterminated String'],
  ["x 'a\\", '2 Unterminated String'],
  ['@"a""', '0 Unterminated String'],
  ['@x', "0 Couldn't lex verbatim string, junk after '@': 120"],
  ['@', "0 Couldn't lex verbatim string, junk after '@': -1"],
  ['1.x', "2 Couldn't lex number, junk after decimal point: 'x'"],
  ['1.', "2 Couldn't lex number, junk after decimal point: '\\x00'"],
  ['1e', "2 Couldn't lex number, junk after 'E': '\\x00'"],
  ['1e+z', "3 Couldn't lex number, junk after exponent sign: 'z'"],
  ['/* open', '0 Multi-line comment has no terminating */'],
  ['a ` b', "2 Could not lex the character '`'"],
  ['é', "0 Could not lex the character '\\u00e9'"],
  ['||| x\n  a\n|||', '0 Text block requires new line after |||.'],
  ['|||\na\n|||', "0 Text block's first line must start with whitespace"],
  ['|||\n  a', '0 Unexpected EOF'],
  ['|||\n  a\nb', '0 Text block not terminated with |||'],
  ['1 + "ok" + "open', '11 Unterminated String'],
];

test('reports lexing errors where go-jsonnet does', () => {
  for (const [code, want] of errors) assert.equal(lexError(code), want, code);
});

test('interns identifiers and operators: one string per distinct text', () => {
  const b = scanTokens(new SourceFile('t', 'alpha + alpha + beta + alpha'));
  assert.equal(b.data[0], 'alpha');
  assert.ok(Object.is(b.data[0], b.data[2]) && Object.is(b.data[0], b.data[6]));
  assert.equal(b.kinds[4], T_IDENTIFIER);
  const names = new Interner(4);
  const words = Array.from({ length: 50 }, (_, i) => `name${i}`);
  for (const w of words) names.intern(w, 0, w.length, hashString(w), i32(w));
  for (const w of words) {
    const text = `(${w})`;
    assert.equal(names.intern(text, 1, text.length - 1, hashString(w), -1), w);
    assert.equal(names.payload, i32(w), 'the payload given when the name was first seen');
  }
});

function i32(s: string): number {
  return s.length * 7;
}

test('grows past its first guess of the token count', () => {
  const code = '[' + '1,'.repeat(20000) + ']';
  const b = scanTokens(new SourceFile('t', code));
  assert.equal(b.count, 40003);
  assert.equal(KIND_NAMES[b.kinds[b.count - 1]!], 'end of file');
  assert.equal(b.starts[40001], code.length - 1);
});

test('lex() gives the same tokens as objects, with their fodder', () => {
  const code = '  // c\n  local x = |||\n    t\n  |||; /* d */ x';
  const b = scanTokens(new SourceFile('t', code));
  const toks = lex(new SourceFile('t', code));
  assert.equal(toks.length, b.count);
  toks.forEach((t, i) => {
    assert.equal(kindCode(t.kind), b.kinds[i]);
    assert.deepEqual([t.data, t.start, t.end], [b.data[i], b.starts[i], b.ends[i]]);
  });
  assert.deepEqual(
    toks[0]!.fodder.map((f) => f.text),
    ['  ', '// c', '\n  '],
  );
  assert.deepEqual([toks[3]!.blockIndent, toks[3]!.blockTermIndent], ['    ', '  ']);
  assert.deepEqual(
    toks[5]!.fodder.map((f) => f.text),
    [' ', '/* d */', ' '],
  );
});
