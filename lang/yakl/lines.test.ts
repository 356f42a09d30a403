/**
 * Line numbers: the generated Jsonnet keeps every node and expression on its
 * source line, so a Jsonnet error inside an expression on line N of a .yakl
 * file reports line N (runtime errors through the engine's trace).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, evaluate, parseModule } from '../jsonnet/index.js';
import { compileYakl } from './index.js';
import { memoryImporter } from '../../test/support/yakl-eval.js';

const cases: { name: string; src: string; line: number }[] = [
  { name: 'plain value', src: 'a: 1\nb:\n  c: ${error "boom"}\n', line: 3 },
  { name: 'multi-line plain expression', src: 'a: 1\nb: ${[\n   1,\n  error "boom"]}\nc: 2\n', line: 4 },
  { name: 'block expression', src: 'a: |-\n  ${[\n    1,\n    error "boom",\n  ]}\n', line: 4 },
  { name: 'quoted expression', src: 'a: 1\n\nb: \'${error "boom"}\'\n', line: 3 },
  { name: 'key expression', src: 'a: 1\n${error "boom"}: 2\n', line: 2 },
  { name: 'list item', src: 'l:\n- 1\n- ${error "boom"}\n', line: 3 },
  { name: 'loop body', src: 'l:\n- ${for x in [1]}:\n    name: ${error "boom"}\n', line: 3 },
  { name: 'condition body', src: 'l:\n- ${if true}:\n    name: ${error "boom"}\n', line: 3 },
  {
    name: 'YAML block inside an expression',
    src: 'a: |-\n  ${ \\{\n      b: 1\n      c: ${error "boom"}\n    } }\n',
    line: 4,
  },
  { name: 'named documents', src: '^^: a\nx: 1\n---\n^^: b\nw: ${error "boom"}\n', line: 5 },
  { name: 'unnamed document in an object file', src: '^^: a\nx: 1\n---\nw: 2\nz: ${error "boom"}\n', line: 5 },
  { name: 'file locals of a list file', src: "'&x': ${error 'boom'}\n---\na: ${x}\n", line: 1 },
  { name: 'anchored document', src: 'a: &x 1\nb: ${x}\nc: ${error "boom"}\n', line: 3 },
  { name: 'kubecfg prelude', src: 'a: ${kubecfg.resolveImage("x")}\nb: ${error "boom"}\n', line: 2 },
  { name: 'two-key field', src: 'x: {a: 1}\nw: 2\nx+: {b: ${error "boom"}}\n', line: 3 },
];

function errorLine(src: string): number {
  const { jsonnet } = compileYakl('lines.yakl', src);
  try {
    evaluate(parseModule(new SourceFile('lines.yakl', jsonnet)), { importer: memoryImporter({}) });
  } catch (e) {
    assert.ok(e instanceof JsonnetError, String(e));
    const text = e.format();
    const m = /lines\.yakl:(\d+):/.exec(text);
    assert.ok(m, text);
    return Number(m[1]);
  }
  assert.fail('expected an error');
}

describe('errors point at the .yakl line', () => {
  for (const c of cases) test(c.name, () => assert.equal(errorLine(c.src), c.line));
});

test('every line of a compiled file holds the code of the same source line', () => {
  const src = 'a: 1\nb:\n  c: ${1 + 1}\n  d: [1, 2]\n---\n^^: x\ne: |-\n  ${[\n    3,\n  ]}\n';
  const { jsonnet } = compileYakl('t.yakl', src);
  const lines = jsonnet.split('\n');
  assert.match(lines[2]!, /1 \+ 1/);
  assert.match(lines[3]!, /d: \[1, 2/);
  assert.match(lines[8]!, /3,/);
});
