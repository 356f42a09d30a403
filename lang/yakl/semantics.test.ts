/**
 * Runtime meanings the spec states that fixtures don't show: what <<+
 * accepts, computed keys (null drops, collisions fail), $ and self, anchors'
 * values before overlays, and list anchors counted from the end under `+`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonnetError } from '../jsonnet/index.js';
import { evalJsonnet, evalYakl } from '../../test/support/yakl-eval.js';
import { KUBECFG_PRELUDE, compileYakl } from './index.js';

const D = '$';
const ok: { name: string; src: string; want: unknown; files?: Record<string, string> }[] = [
  { name: 'null key drops the field', src: `a: 1\n${D}{null}: 2\n`, want: { a: 1 } },
  { name: 'self is the innermost mapping', src: `m:\n  x: 1\n  yy: ${D}{self.x + 1}\n`, want: { m: { x: 1, yy: 2 } } },
  {
    name: '$ is the document root without names',
    src: `x: 1\nm:\n  yy: ${D}{$.x}\n---\nx: 2\nz: ${D}{$.x}\n`,
    want: [
      { x: 1, m: { yy: 1 } },
      { x: 2, z: 2 },
    ],
  },
  {
    name: 'loop variable hides an outer local',
    src: `'&e': 5\nl:\n- ${D}{for e in [1, 2]}: ${D}{e}\n- ${D}{e}\n`,
    want: { l: [1, 2, 5] },
  },
  {
    name: 'nested loops',
    src: `l:\n- ${D}{for a in [1, 2]}:\n    v: ${D}{a}\n    w:\n    - ${D}{for b in [a, a * 10]}: ${D}{b}\n`,
    want: {
      l: [
        { v: 1, w: [1, 10] },
        { v: 2, w: [2, 20] },
      ],
    },
  },
  {
    name: 'local keys once per iteration',
    src: `l:\n- ${D}{for a in [1, 2]}:\n    '&d': ${D}{a * 2}\n    v: ${D}{d}\n`,
    want: { l: [{ v: 2 }, { v: 4 }] },
  },
  {
    name: 'anchor on an item after loops counts from the end',
    src: `l:\n- ${D}{for a in [1, 2]}: ${D}{a}\n- &last 9\nm: ${D}{last}\n`,
    want: { l: [1, 2, 9], m: 9 },
  },
  {
    name: 'anchor under args+ is the combined item',
    src: `'&b': ${D}{ {args: ['x']} }\n---\nc:\n  <<+: ${D}{b}\n  args+: [&y 'z']\n  w: ${D}{y}\n`,
    want: { c: { args: ['x', 'z'], w: 'z' } },
  },
  {
    name: 'anchor value is before overlays',
    src: `^^: d\nm: &m {a: 1}\nnn: ${D}{m}\n`,
    want: { d: { m: { a: 1 }, nn: { a: 1 } } },
  },
  { name: 'two-key rule with hidden', src: `x:: {a: 1}\nx+: {b: 2}\nyy: ${D}{self.x}\n`, want: { yy: { a: 1, b: 2 } } },
  {
    name: 'several <<+ sources: earlier wins',
    src: `m:\n  <<+: ['${D}{ {a: 1} }', '${D}{ {a: 2, b: 2} }']\n`,
    want: { m: { a: 1, b: 2 } },
  },
  {
    name: '<< and <<+ together',
    src: `a: &s {p: 1}\nm:\n  <<: *s\n  <<+: '${D}{ {q: 2, p: 0} }'\n  r: 3\n`,
    want: { a: { p: 1 }, m: { p: 1, q: 2, r: 3 } },
  },
  {
    name: 'own local key wins over a copied one',
    src: `a: &s {'&v': 1, k: '${D}{v}'}\nm:\n  <<: *s\n  '&v': 2\n`,
    want: { a: { k: 1 }, m: { k: 2 } },
  },
  {
    name: 'alias copy reads self where it is',
    src: `a: &s {x: 1, yy: '${D}{self.x}'}\nb:\n  <<: *s\n  x: 2\n`,
    want: { a: { x: 1, yy: 1 }, b: { x: 2, yy: 2 } },
  },
  {
    name: 'YAML block sees the comprehension scope',
    src: `l: |-\n  ${D}{[\\{\n      k: ${D}{k}\n    } for k in ['a']]}\n`,
    want: { l: [{ k: 'a' }] },
  },
  { name: 'file locals in any order', src: `'&a': ${D}{b + 1}\n'&b': 1\n---\nv: ${D}{a}\n`, want: { v: 2 } },
  { name: 'anchor may hide a file local', src: `'&a': 1\n---\nx: &a 5\nyy: ${D}{a}\n`, want: { x: 5, yy: 5 } },
  {
    name: 'expression keys merge by formatted code',
    src: `a: &s {'${D}{"a"+"b"}': 1, c: 2}\nm:\n  <<: *s\n  '${D}{"a" + "b"}': 3\n`,
    want: { a: { ab: 1, c: 2 }, m: { ab: 3, c: 2 } },
  },
  {
    name: 'yaml-1.1 numbers',
    src: `a: 0x1F\nb: 0777\nc: 1_000\nd: 0b101\ne: +12\nf: ~\n`,
    want: { a: 31, b: 511, c: 1000, d: 5, e: 12, f: null },
  },
];

const bad: { name: string; src: string; says: RegExp }[] = [
  {
    name: '<<+ with a list',
    src: `m:\n  <<+: ${D}{[1]}\n  a: 1\n`,
    says: /<<\+ at line 2 must extend an object or null, got array/,
  },
  { name: '<<+ with a string', src: `m:\n  <<+: ${D}{'s'}\n`, says: /got string/ },
  { name: 'computed key collision', src: `${D}{'a'}: 1\na: 2\n`, says: /[Dd]uplicate field/ },
  {
    name: 'expression keys with different code collide',
    src: `a: &s {'${D}{"ab"}': 1}\nm:\n  <<: *s\n  '${D}{"a" + "b"}': 3\n`,
    says: /[Dd]uplicate field/,
  },
  { name: 'computed key not a string', src: `${D}{1}: 1\n`, says: /[Ff]ield name must be string/ },
  {
    name: 'anchor in another document',
    src: `'&x': 1\n---\n^^: a\nv: &w 1\n---\n^^: b\nu: ${D}{w}\n`,
    says: /[Uu]nknown variable/,
  },
];

describe('runtime meaning', () => {
  for (const c of ok) test(c.name, () => assert.deepEqual(evalYakl(c.src, c.files), c.want));
  for (const c of bad) {
    test(c.name, () => {
      assert.throws(
        () => evalYakl(c.src),
        (e: unknown) => e instanceof JsonnetError && c.says.test(e.message),
      );
    });
  }
  test('evalJsonnet helper sanity', () => assert.deepEqual(evalJsonnet('1 + 1'), 2));
});

describe('predefined kubecfg', () => {
  const cases: [string, string, boolean][] = [
    ['used and not declared', 'a: ${kubecfg.x}\n', true],
    ['declared as a file local', "'&kubecfg': ${import 'kubecfg.libsonnet'}\n---\na: ${kubecfg.x}\n", false],
    ['a field named kubecfg is not a use', 'a: ${x.kubecfg}\n', false],
    ['hidden by a local key around the use', "m:\n  '&kubecfg': 1\n  a: ${kubecfg}\n", false],
    ['used inside a YAML block', 'a: |-\n  ${ \\{\n      b: ${kubecfg.x}\n    } }\n', true],
  ];
  for (const [name, src, uses] of cases) {
    test(name, () => {
      const r = compileYakl('k.yakl', src);
      assert.equal(r.usesKubecfg, uses);
      assert.equal(r.jsonnet.startsWith(KUBECFG_PRELUDE), uses);
      // The prelude sits in front of line 1: line numbers don't move.
      assert.ok(!KUBECFG_PRELUDE.includes('\n'));
    });
  }
});
