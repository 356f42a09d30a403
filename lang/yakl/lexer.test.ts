/**
 * The YAML-aware lexer: which `${` start a node and become placeholders, and
 * which are skipped (comments, quoted and block scalars, text after a value).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LexError, lexYakl } from './lexer.js';

const D = '$';
const cases: { name: string; src: string; exprs: string[] }[] = [
  { name: 'value', src: `a: ${D}{x}\n`, exprs: [`${D}{x}`] },
  { name: 'key', src: `${D}{k}: 1\n`, exprs: [`${D}{k}`] },
  { name: 'list item and clause', src: `- ${D}{a}\n- ${D}{for x in y}: 1\n`, exprs: [`${D}{a}`, `${D}{for x in y}`] },
  { name: 'flow items', src: `f: [${D}{a}, ${D}{b}]\n`, exprs: [`${D}{a}`, `${D}{b}`] },
  { name: 'multi-line plain expression', src: `a: ${D}{[\n 1,\n]}\nb: 2\n`, exprs: [`${D}{[\n 1,\n]}`] },
  { name: 'anchored', src: `a: &x ${D}{1}\n`, exprs: [`${D}{1}`] },
  { name: 'after ---', src: `--- ${D}{1}\n`, exprs: [`${D}{1}`] },
  { name: 'literal text is not an expression', src: `a: echo ${D}{HOME}\n`, exprs: [] },
  { name: 'comment', src: `# ${D}{x}\na: 1 # ${D}{y}\n`, exprs: [] },
  { name: 'quoted scalars are skipped', src: `a: '${D}{x}'\nb: "${D}{y}"\n`, exprs: [] },
  { name: 'block scalars are skipped', src: `a: |\n  ${D}{x}\n  ${D}{y}\nb: ${D}{z}\n`, exprs: [`${D}{z}`] },
  { name: 'double dollar', src: `a: ${D}${D}{x}\n`, exprs: [] },
];

describe('lexYakl', () => {
  for (const c of cases) {
    test(c.name, () => {
      const r = lexYakl(c.src);
      assert.deepEqual(
        r.expressions.map((e) => c.src.slice(e.start, e.end)),
        c.exprs,
      );
      for (const e of r.expressions) {
        const at = r.text.indexOf(e.placeholder);
        assert.ok(at >= 0);
        assert.equal(r.toSource(at), e.start);
      }
    });
  }
  test('the marker does not occur in the source', () => {
    const src = `a: \uE000\nb: ${D}{1}\n`;
    const r = lexYakl(src);
    assert.ok(!src.includes(r.marker));
  });
  test('offsets after a multi-line expression map back', () => {
    const src = `a: ${D}{[\n 1]}\nb: x\n`;
    const r = lexYakl(src);
    const at = r.text.indexOf('b: x');
    assert.equal(r.toSource(at), src.indexOf('b: x'));
  });
  test('text after an expression is an error', () => {
    assert.throws(() => lexYakl(`a: ${D}{v}-alpine\n`), LexError);
  });
});
