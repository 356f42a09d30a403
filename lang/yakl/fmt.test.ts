/**
 * yaklfmt rules from the spec: expressions formatted as jsonnetfmt does,
 * quoting added where the formatted code isn't a plain scalar, quotes kept,
 * block expressions kept as blocks, `---` content moved to the next line,
 * and clauses, YAML blocks and multi-line results left as they are.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { formatYakl } from './index.js';

const D = '$';
const cases: { name: string; src: string; want: string }[] = [
  { name: 'plain gets quoted because of the colon', src: `a: ${D}{ {a:1} }\n`, want: `a: '${D}{ { a: 1 } }'\n` },
  { name: 'plain stays plain', src: `a: ${D}{1+2}\n`, want: `a: ${D}{1 + 2}\n` },
  { name: 'single quotes kept', src: `a: '${D}{1+2}'\n`, want: `a: '${D}{1 + 2}'\n` },
  { name: 'double quotes kept', src: `a: "${D}{'x'+'y'}"\n`, want: `a: "${D}{'x' + 'y'}"\n` },
  { name: 'flow item quoted', src: `e: [${D}{1+1}]\n`, want: `e: ['${D}{1 + 1}']\n` },
  {
    name: 'block keeps its lines',
    src: `d: |-\n  ${D}{[\n      {containerPort: p}  // one entry per port\n      for p in [80,443]\n  ]}\n`,
    want: `d: |-\n  ${D}{[\n    { containerPort: p }  // one entry per port\n    for p in [80, 443]\n  ]}\n`,
  },
  { name: '--- content moves to the next line', src: `a: 1\n--- |\n  text\n`, want: `a: 1\n---\n|\n  text\n` },
  { name: 'clauses left as they are', src: `- ${D}{for x in [1,2]}: 1\n`, want: `- ${D}{for x in [1,2]}: 1\n` },
  {
    name: 'YAML blocks left as they are',
    src: `a: |-\n  ${D}{ \\{\n      b:   1\n    } }\n`,
    want: `a: |-\n  ${D}{ \\{\n      b:   1\n    } }\n`,
  },
  {
    name: 'multi-line result left as it is',
    src: `a: '${D}{ {a: 1, // c\n\n b: 2} }'\n`,
    want: `a: '${D}{ {a: 1, // c\n\n b: 2} }'\n`,
  },
  {
    name: 'comments and YAML kept',
    src: `# top\na:   ${D}{1+1}   # note\n`,
    want: `# top\na:   ${D}{1 + 1}   # note\n`,
  },
];

describe('formatYakl', () => {
  for (const c of cases) test(c.name, () => assert.equal(formatYakl('f.yakl', c.src), c.want));
  test('is idempotent', () => {
    for (const c of cases) assert.equal(formatYakl('f.yakl', c.want), c.want);
  });
});
