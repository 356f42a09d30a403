/**
 * Brace matching aware of Jsonnet's lexical syntax: braces in strings,
 * verbatim strings, text blocks and comments don't count; `\{` YAML blocks
 * are skipped whole by their indentation.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scanToClosingBrace } from './jsonnet-scan.js';

const closes: { name: string; code: string; end: number }[] = [
  { name: 'nested braces', code: '{a: {b: 1}}}', end: 11 },
  { name: 'double-quoted string', code: '"}" + "\\"}"}', end: 11 },
  { name: 'single-quoted string', code: "'}'}", end: 3 },
  { name: 'verbatim string with doubled quote', code: "@'a''}'}", end: 7 },
  { name: 'line comments', code: 'x // }\n# }\n}', end: 11 },
  { name: 'block comment', code: 'x /* } */ }', end: 10 },
  { name: 'text block', code: '|||\n  } not code\n||| }', end: 21 },
  { name: 'yaml block', code: '[\\{\n    a: }\n  }]}', end: 17 },
];

describe('scanToClosingBrace', () => {
  for (const c of closes) {
    test(c.name, () => {
      const r = scanToClosingBrace(c.code, 0);
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(r.end, c.end);
    });
  }
  test('reports the yaml block', () => {
    const r = scanToClosingBrace('[\\{\n    a: 1\n  } for k in x]}', 0);
    assert.ok(r.ok);
    assert.equal(r.blocks.length, 1);
    assert.equal(r.blocks[0]!.contentStart, 4);
  });
  for (const [name, code, reason] of [
    ['unterminated string', '"abc}', /string/],
    ['no closing brace', '{a: 1}', /no matching/],
    ['unterminated comment', '/* }', /comment/],
    ['text after \\{', '\\{ a: 1\n}}', /end its line/],
    ['block without its closing line', '\\{\n  a: 1\n', /unterminated/],
  ] as const) {
    test(name, () => {
      const r = scanToClosingBrace(code, 0);
      assert.ok(!r.ok);
      assert.match(r.reason, reason);
    });
  }
});
