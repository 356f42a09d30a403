import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatHunks, myersEdits, splitLines, unifiedHunks } from './unified-diff.js';

const lines = (n: number, change: Record<number, string> = {}): string =>
  Array.from({ length: n }, (_, i) => (change[i + 1] ?? `line ${i + 1}`) + (i + 1 < n ? '\n' : '')).join('');

test('splitLines keeps line ends and a final unterminated line', () => {
  assert.deepEqual(splitLines('a\nb\nc'), ['a\n', 'b\n', 'c']);
  assert.deepEqual(splitLines('a\n'), ['a\n']);
  assert.deepEqual(splitLines(''), []);
});

test('equal texts give no hunks', () => {
  assert.deepEqual(unifiedHunks(lines(5), lines(5)), []);
});

test('hunk layout matches kubecfg (gotextdiff) output', () => {
  const table: Array<[string, string, string, string]> = [
    [
      'one changed line',
      lines(10),
      lines(10, { 5: 'five' }),
      '@@ -2,7 +2,7 @@\n line 2\n line 3\n line 4\n-line 5\n+five\n line 6\n line 7\n line 8\n',
    ],
    [
      'change at the start',
      lines(5),
      lines(5, { 1: 'one' }),
      '@@ -1,4 +1,4 @@\n-line 1\n+one\n line 2\n line 3\n line 4\n',
    ],
    [
      'change at the unterminated last line',
      lines(3),
      lines(3, { 3: 'three' }),
      '@@ -1,3 +1,3 @@\n line 1\n line 2\n-line 3\n\\ No newline at end of file\n+three\n\\ No newline at end of file\n',
    ],
    [
      'two far apart edits make two hunks',
      lines(20),
      lines(20, { 3: 'x', 17: 'y' }),
      '@@ -1,6 +1,6 @@\n line 1\n line 2\n-line 3\n+x\n line 4\n line 5\n line 6\n@@ -14,7 +14,7 @@\n line 14\n line 15\n line 16\n-line 17\n+y\n line 18\n line 19\n line 20\n\\ No newline at end of file\n',
    ],
    ['insertion only', 'a\nb\nc', 'a\nb\nnew\nc', '@@ -1,3 +1,4 @@\n a\n b\n+new\n c\n\\ No newline at end of file\n'],
    ['deletion only', 'a\nb\nold\nc', 'a\nb\nc', '@@ -1,4 +1,3 @@\n a\n b\n-old\n c\n\\ No newline at end of file\n'],
  ];
  for (const [what, before, after, want] of table)
    assert.equal(formatHunks(unifiedHunks(before, after), false, false), want, what);
});

test('a hunk after a joined hunk carries the "to" line number kubecfg prints', () => {
  // Edits at lines 3 and 7 join into one hunk whose 3 context lines between them
  // are not counted towards the next hunk's "+" line (gotextdiff behaviour).
  const out = formatHunks(unifiedHunks(lines(40), lines(40, { 3: 'a', 7: 'b', 30: 'c' })), false, false);
  const headers = out.split('\n').filter((l) => l.startsWith('@@'));
  assert.deepEqual(headers, ['@@ -1,10 +1,10 @@', '@@ -27,7 +24,7 @@']);
});

test('colour and omitted values', () => {
  const before = '{\n  "data": {\n    "password": "aGVsbG8="\n  }\n}';
  const after = '{\n  "data": {\n    "password": "d29ybGQ="\n  }\n}';
  assert.equal(
    formatHunks(unifiedHunks(before, after), false, true),
    '@@ -1,5 +1,5 @@\n-    password: <omitted>\n+    password: <omitted>\n\n\\ No newline at end of file\n',
  );
  assert.equal(
    formatHunks(unifiedHunks('a\nb', 'a\nc'), true, false),
    '@@ -1,2 +1,2 @@\n a\n\x1b[0m\x1b[31m-b\x1b[0m\n\\ No newline at end of file\n\x1b[32m+c\x1b[0m\n\\ No newline at end of file\n',
  );
});

test('property: the edits turn "before" into "after" with a minimal number of changed lines', () => {
  const lineArrays = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', '{\n', '}\n'), { maxLength: 12 });
  fc.assert(
    fc.property(lineArrays, lineArrays, (a, b) => {
      const edits = myersEdits(a, b);
      const out: string[] = [];
      let at = 0;
      for (const e of edits) {
        out.push(...a.slice(at, e.start), ...e.insert);
        at = Math.max(at, e.end);
      }
      out.push(...a.slice(at));
      assert.deepEqual(out, b);
      const changed = edits.reduce((n, e) => n + (e.end - e.start) + e.insert.length, 0);
      assert.equal(changed, a.length + b.length - 2 * lcsLength(a, b));
    }),
    { numRuns: 300 },
  );
});

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      dp[i]![j] = a[i - 1] === b[j - 1] ? dp[i - 1]![j - 1]! + 1 : Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!);
    }
  }
  return dp[a.length]![b.length]!;
}
