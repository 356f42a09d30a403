import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../../common/source.js';
import { commentRestyler } from './enforce-comment-style.js';
import { capBlankLines } from './enforce-max-blank-lines.js';
import { enforceStringStyleAt } from './enforce-string-style.js';
import type { Fodder } from './fodder.js';
import { fixNewlinesAt } from './fix-newlines.js';
import { collapseParens, doubledParens } from './fix-parens.js';
import { fixPlusObjectAt } from './fix-plus-object.js';
import { fixTrailingCommasAt } from './fix-trailing-commas.js';
import { noRedundantSliceColonAt } from './no-redundant-slice-colon.js';
import { prettyFieldNamesAt } from './pretty-field-names.js';
import type { Node } from './tree.js';
import { parseForFormat } from './tree-parser.js';
import { runTreePasses, type TreePassOptions } from './tree-passes.js';
import { forEachPassFodder, transformTree } from './walk.js';

/** The reference: jsonnetfmt's passes one after another, each over the whole tree. */
function sequentialPasses(input: Node, finalFodder: Fodder, o: TreePassOptions): Node {
  let body = input;
  const max = o.maxBlankLines;
  if (max > 0) {
    forEachPassFodder(body, (f) => capBlankLines(f, max));
    capBlankLines(finalFodder, max);
  }
  const each = (f: (n: Node) => void): void => {
    body = transformTree(body, (n) => {
      f(n);
      return n;
    });
  };
  each(fixNewlinesAt);
  each(fixTrailingCommasAt);
  each((n) => {
    const inner = doubledParens(n);
    if (inner && n.type === 'parens') collapseParens(n, inner);
  });
  body = transformTree(body, fixPlusObjectAt);
  each(noRedundantSliceColonAt);
  if (o.prettyFieldNames) each(prettyFieldNamesAt);
  const stringStyle = o.stringStyle;
  if (stringStyle !== 'l') each((n) => enforceStringStyleAt(n, stringStyle));
  if (o.commentStyle !== 'l') {
    const restyle = commentRestyler(o.commentStyle);
    forEachPassFodder(body, restyle);
    restyle(finalFodder);
  }
  return body;
}

const VARIANTS: TreePassOptions[] = [
  { maxBlankLines: 2, prettyFieldNames: true, stringStyle: 's', commentStyle: 's' },
  { maxBlankLines: 1, prettyFieldNames: true, stringStyle: 'd', commentStyle: 'h' },
  { maxBlankLines: 0, prettyFieldNames: false, stringStyle: 'l', commentStyle: 'l' },
];

// Inputs where the order of the passes' effects matters.
const CASES = [
  // Moving the `+`'s fodder into the object's adds blank lines up, after capping.
  'x\n\n\n\n+\n\n\n\n{a:1}',
  'x.y /* c */\n\n\n\n+ # d\n\n\n\n{a:1}',
  // ((e)) drops the inner parentheses after fix-newlines and capping saw them.
  '((\n\n\n\n(\n\n\n\n1\n\n\n\n)\n\n\n\n))',
  '(((1)\n))',
  '[((\n1)), (( # c\n2\n))]',
  // The she-bang is only kept when it is the first comment the last pass sees.
  '#!/usr/bin/jsonnet\n( # c\n(1))',
  '#!x\n# y\n{a: 1}',
  // Fodder inside brackets is not capped, but the index string's is before it moves.
  "x[\n\n\n\n'a'\n\n\n\n]",
  "x[ # c\n'if']",
  'x[1\n\n\n\n:\n\n\n\n:\n\n\n\n]',
  "{['a']\n\n\n\n: 1, 'b'\n\n\n\n:: 2, [\"c d\"]: 3}",
  "{ f(x)\n\n\n\n: x, ['g'](y): y }",
  "local a = import 'b';\n\n\n\n# c\nlocal b = import\n\n\n\n'a';\na",
  '[1,\n\n\n\n2,\n\n\n\n]',
  '[x\n\n\n\n, # c\n\n\n\nfor x in [1]\n\n\n\nif x]',
  "{ [k]: 1\n\n\n\n, for k in ['a']}",
  'super.a\n\n\n\nin\n\n\n\nsuper',
  'f(a,\n\n\n\nb=2,\n\n\n\n)',
  '"it\'s" + \'say "hi"\' + "\\u00e9\\t"',
];

function check(text: string): void {
  for (const o of VARIANTS) {
    const a = parseForFormat(new SourceFile('a.jsonnet', text));
    const b = parseForFormat(new SourceFile('b.jsonnet', text));
    const want = { body: sequentialPasses(a.body, a.finalFodder, o), finalFodder: a.finalFodder };
    const got = { body: runTreePasses(b.body, b.finalFodder, o), finalFodder: b.finalFodder };
    assert.deepEqual(got, want, `${JSON.stringify(text)} with ${JSON.stringify(o)}`);
  }
}

test('one walk gives the tree of the passes run one by one', () => {
  for (const text of CASES) check(text);
});

// Small random programs with comments and blank lines in every gap (seeded, so reproducible).
function randomProgram(seed: number): string {
  let s = seed;
  const rnd = (k: number): number => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >>> 4) % k;
  };
  const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
  const gaps = [' ', ' ', '\n\n\n\n', ' # c\n', ' /* i */ ', '\n/* a\n   b */\n', '\n\n\n# p\n\n\n\n', '\n  #!x\n'];
  const w = (): string => pick(gaps);
  const expr = (d: number): string => {
    if (d <= 0) return pick(['x', '1', "'s'", '"d"', "'a b'", '"it\'s"', 'self']);
    switch (rnd(9)) {
      case 0:
        return `((${w()}(${w()}${expr(d - 1)}${w()})${w()})${w()})`;
      case 1:
        return `${pick(['x', 'x.y'])}${w()}+${w()}{${w()}a${w()}:${w()}${expr(d - 1)}${w()}}`;
      case 2:
        return `${expr(d - 1)}${w()}[${w()}${pick(["'a'", '"b"', "'if'", '1'])}${w()}${pick([']', ':]', '::]'])}`;
      case 3:
        return `{${w()}['k']${w()}:${w()}${expr(d - 1)}${w()},${w()}"q"${w()}::${w()}${expr(d - 1)}${w()}}`;
      case 4:
        return `[${w()}${expr(d - 1)}${w()},${w()}${expr(d - 1)}${w()}${pick([',', ''])}${w()}]`;
      case 5:
        return `[${w()}${expr(d - 1)}${w()}for${w()}v${w()}in${w()}${expr(d - 1)}${w()}]`;
      case 6:
        return `local${w()}f(a)${w()}=${w()}${expr(d - 1)};${w()}f(${w()}${expr(d - 1)}${w()})`;
      case 7:
        return `if${w()}${expr(d - 1)}${w()}then${w()}${expr(d - 1)}${w()}else${w()}${expr(d - 1)}`;
      default:
        return `${expr(d - 1)}${w()}+${w()}${expr(d - 1)}`;
    }
  };
  return `${pick(['', '#!/bin/j\n', '\n\n\n\n'])}{${w()}o${w()}:${w()}${expr(3)}${w()}}${w()}`;
}

test('one walk gives the tree of the passes run one by one (random programs)', () => {
  for (let seed = 1; seed <= 150; seed++) check(randomProgram(seed));
});
