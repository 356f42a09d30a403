/**
 * The "later + key" rule across documents (yakl.txt, Anchors are locals, and
 * Errors: "^^: web and ^^+: web in one file combine as web: A + B, by the same
 * rule as two keys in a mapping"): an anchor on a list item counted from the
 * end is an error when the other half of the pair adds to that list, in
 * either document order; anchors of both halves read the combined field
 * (labels+: &l holds the inherited labels), exactly as the same file written
 * as two keys in one mapping; and overlays, which change fields and never
 * locals, leave a base's anchors alone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileYakl, YaklError } from './index.js';
import { evalJsonnet, evalYakl } from '../../test/support/yakl-eval.js';

const D = '$';

const errors: { name: string; src: string; line: number }[] = [
  { name: 'the spec example, as documents', src: '^^: x\nargs+: [&a 1]\n---\n^^+: x\nargs+: [2]\n', line: 2 },
  {
    name: 'nested: x+: {args+: [...]} after x: {args+: [&a ...]}',
    src: '^^: x\nspec:\n  args+: [&a 1]\n---\n^^+: x\nspec+:\n  args+: [2]\n',
    line: 3,
  },
  {
    name: 'the ^^+ document first',
    src: '^^+: x\nspec+:\n  args+: [2]\n---\n^^: x\nspec:\n  args+: [&a 1]\n',
    line: 7,
  },
  { name: 'a hidden pair', src: '^^:: x\nargs+: [&a 1]\n---\n^^+: x\nargs+: [2]\n', line: 2 },
  {
    name: 'an item after a loop is counted from the end too',
    src: `^^: x\nargs:\n- ${D}{for i in [1]}: ${D}{i}\n- &a 9\n---\n^^+: x\nargs+: [2]\n`,
    line: 4,
  },
];

describe('a later ^^+ document and anchors counted from the end', () => {
  for (const c of errors) {
    test(c.name, () => {
      let err: unknown;
      try {
        compileYakl('err.yakl', c.src);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof YaklError, `expected a YaklError, got ${String(err)}`);
      assert.equal(err.code, 'YAKL_ANCHOR_PLACE', err.message);
      assert.equal(err.line, c.line, err.message);
      assert.match(err.reason, /index isn't known/);
    });
  }
});

const same: { name: string; docs: string; mapping: string; want: unknown }[] = [
  {
    name: 'an anchor under labels+ in the ^^+ document holds the inherited labels',
    docs: `^^: x\nlabels: {a: 1}\nargs: [1]\n---\n^^+: x\nlabels+: &l {b: 2}\nargs+: [&t 3]\nseen: ${D}{l}\nlast: ${D}{t}\n`,
    mapping: `x:\n  labels: {a: 1}\n  args: [1]\nx+:\n  labels+: &l {b: 2}\n  args+: [&t 3]\n  seen: ${D}{l}\n  last: ${D}{t}\n`,
    want: { x: { labels: { a: 1, b: 2 }, args: [1, 3], seen: { a: 1, b: 2 }, last: 3 } },
  },
  {
    name: 'an item counted from the start reads the combined list',
    docs: `^^: x\nargs: [1, &a 2]\nb: ${D}{a}\n---\n^^+: x\nargs+: [3]\n`,
    mapping: `x:\n  args: [1, &a 2]\n  b: ${D}{a}\nx+:\n  args+: [3]\n`,
    want: { x: { args: [1, 2, 3], b: 2 } },
  },
  {
    name: 'a plain key in the ^^+ document replaces, and the anchor sees it',
    docs: `^^: x\nm: &m {a: 1}\ncopy: ${D}{m}\n---\n^^+: x\nm: {z: 0}\n`,
    mapping: `x:\n  m: &m {a: 1}\n  copy: ${D}{m}\nx+:\n  m: {z: 0}\n`,
    want: { x: { m: { z: 0 }, copy: { z: 0 } } },
  },
];

describe('^^: x with ^^+: x is two keys in a mapping', () => {
  for (const c of same) {
    test(c.name, () => {
      assert.deepEqual(evalYakl(c.docs), c.want);
      assert.deepEqual(evalYakl(c.mapping), c.want);
    });
  }
  test('a hidden pair stays hidden and other documents read it through $', () => {
    const src = `^^:: cfg\nports: [80]\n---\n^^+: cfg\nports+: [&p 443]\nlast: ${D}{p}\n---\n^^: cm\napiVersion: v1\nkind: ConfigMap\ndata: {last: '${D}{std.toString($.cfg.last)}'}\n`;
    assert.deepEqual(evalYakl(src), { cm: { apiVersion: 'v1', kind: 'ConfigMap', data: { last: '443' } } });
  });
});

describe('overlays change fields, never locals', () => {
  const files = {
    'base.yakl': `^^: x\nargs+: [&a 1]\nfirst: ${D}{a}\n`,
    'over.yakl': `^^+: x\nargs+: [&b 2]\nmine: ${D}{b}\n`,
  };
  test("a base's anchor under args+ keeps its item when an overlay appends", () => {
    const got = evalJsonnet(`(import 'yakl:base.yakl') + (import 'yakl:over.yakl')`, files);
    assert.deepEqual(got, { x: { args: [1, 2], first: 1, mine: 2 } });
  });
  test('a file extending the base with <<+ is the overlay', () => {
    const src = `<<+: ${D}{import 'yakl:base.yakl'}\n---\n` + files['over.yakl'];
    assert.deepEqual(evalYakl(src, files, 'ext.yakl'), { x: { args: [1, 2], first: 1, mine: 2 } });
  });
});
