// TextSink gives exactly the concatenation of its pieces, across chunk boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextSink } from './text-sink.js';

const cases: [string, string[]][] = [
  ['nothing', []],
  ['one empty piece', ['']],
  ['small pieces', ['{', '\n', '   ', '"a"', ': ', '1', '\n', '}']],
  ['one piece over a chunk', ['x'.repeat(20000)]],
  ['many pieces over several chunks', Array.from({ length: 5000 }, (_, i) => `"k${i}": ${i},\n`)],
  [
    'non-ASCII across a boundary',
    [...Array.from({ length: 3000 }, () => 'ab'), 'é🙂', ...Array.from({ length: 3000 }, () => 'cd')],
  ],
];

test('text() is the concatenation of the pieces', () => {
  for (const [name, pieces] of cases) {
    const sink = new TextSink();
    for (const p of pieces) sink.write(p);
    assert.equal(sink.text(), pieces.join(''), name);
  }
});
