// The static analyzer's outputs besides its errors (those are in
// parser.test.ts): variable slots, object frames and the trace context names
// of go-jsonnet's addContext, for the node kinds that name their children.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import type { Node } from './ast.js';
import { children } from './ast.js';
import { parse } from './parser.js';
import { analyze } from './static-analyzer.js';

function analyzed(code: string): Node {
  const file = new SourceFile('t', code);
  const ast = parse(file);
  analyze(ast, file);
  return ast;
}

/** `name@depth.index` of every variable, in source order. */
function slots(code: string): string[] {
  const out: { at: number; s: string }[] = [];
  const walk = (n: Node): void => {
    if (n.type === 'Var' || n.type === 'Dollar')
      out.push({ at: n.span.start, s: `${n.type === 'Var' ? n.name : '$'}@${n.depth}.${n.index}` });
    for (const c of children(n)) walk(c);
  };
  walk(analyzed(code));
  return out.sort((a, b) => a.at - b.at).map((o) => o.s);
}

const slotCases: [string, string[]][] = [
  ['std', ['std@0.0']],
  ['local a = 1, b = a; b', ['a@0.0', 'b@0.1']],
  ['local f(x, y) = x + y; f', ['x@0.0', 'y@0.1', 'f@0.0']],
  ['{ local l = 1, a: l, b: { c: $.a } }', ['l@0.0', '$@1.1']],
  ['[x + y for x in [1] for y in [x]]', ['x@1.0', 'y@0.0', 'x@0.0']],
  ['local a = 1; { [std.toString(a)]: a }', ['std@1.0', 'a@0.0', 'a@1.0']],
  ['{ [k]: v for k in ["a"] for v in [1] }', ['k@1.0', 'v@1.0']],
];

test('resolves variables to (frames up, slot)', () => {
  for (const [code, want] of slotCases) assert.deepEqual(slots(code), want, code);
});

/** Each node's ctx, in source order, as `text=ctx` (parenthesised and id nodes skipped). */
function contexts(code: string, pick: (n: Node) => boolean): string[] {
  const out: { at: number; s: string }[] = [];
  const walk = (n: Node): void => {
    if (pick(n)) out.push({ at: n.span.start, s: `${code.slice(n.span.start, n.span.end)}=${n.ctx}` });
    for (const c of children(n)) walk(c);
  };
  walk(analyzed(code));
  return out.sort((a, b) => a.at - b.at).map((o) => o.s);
}

const isLeaf = (n: Node): boolean => n.type === 'Number' || n.type === 'Var';

const contextCases: [string, string[]][] = [
  ['local f(x) = x; f(1)', ['x=function <f>', 'f=$', '1=thunk from <$>']],
  ['{ a: [1], b(x): x }', ['1=thunk from <object <anonymous>>', 'x=function <anonymous>']],
  ['local o = { a: 1 }; o', ['1=object <o>', 'o=$']],
  ['local a = local b = 2; b; a', ['2=thunk <b> from <thunk <a> from <$>>', 'b=thunk <a> from <$>', 'a=$']],
  ['[x for x in [1]]', ['x=thunk from <$>', '1=thunk from <$>']],
  // go-jsonnet's addContext does not descend into `a.b`: the target keeps no context.
  ['local a = {}; a.b + a[1]', ['a=', 'a=$', '1=$']],
];

test('names trace contexts as go-jsonnet does', () => {
  for (const [code, want] of contextCases) assert.deepEqual(contexts(code, isLeaf), want, code);
});

test('sizes object frames: locals, then $ on the outermost object', () => {
  const ast = analyzed('{ local a = 1, local b = 2, c: { d: 1 } }');
  assert.equal(ast.type, 'Object');
  if (ast.type !== 'Object') return;
  assert.deepEqual([ast.frameSize, ast.dollarIndex], [3, 2]);
  const inner = ast.fields[0]!.body;
  assert.ok(inner.type === 'Object');
  if (inner.type === 'Object') assert.deepEqual([inner.frameSize, inner.dollarIndex], [0, -1]);
});
