// TextSink gives exactly the concatenation of its pieces, across chunk boundaries, as text or as UTF-8.
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
  // The two halves of a pair in two pieces, the first one ending a chunk.
  ['a pair split between pieces at a chunk end', ['x'.repeat(8192), '\ud83d', '\ude42', 'y']],
  ['a pair split between pieces', ['x'.repeat(8191), '\ud83d', '\ude42', 'y'.repeat(9000)]],
  ['an unpaired high surrogate ending a chunk', ['x'.repeat(8192), '\ud83d', 'z'.repeat(10)]],
  ['an unpaired surrogate at the end', ['abc', '\udc00']],
  [
    'two-byte and four-byte characters, many chunks',
    Array.from({ length: 20000 }, (_, i) => `"ключ${i}": "🙂${i}",\n`),
  ],
  ['output larger than the initial room', ['é'.repeat(50000), 'x'.repeat(200000)]],
];

test('text() is the concatenation of the pieces', () => {
  for (const [name, pieces] of cases) {
    const sink = new TextSink();
    for (const p of pieces) sink.write(p);
    assert.equal(sink.text(), pieces.join(''), name);
  }
});

test('bytes() is the UTF-8 of the concatenation, as a stream encodes it', () => {
  for (const [name, pieces] of cases) {
    const sink = new TextSink(true);
    for (const p of pieces) sink.write(p);
    const bytes = sink.bytes();
    assert.deepEqual(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      Buffer.from(pieces.join(''), 'utf8'),
      name,
    );
    // Little room left over: a receiver may keep or transfer the buffer.
    assert.ok(bytes.buffer.byteLength - bytes.byteLength <= bytes.buffer.byteLength / 8, name);
  }
});

test('a sink answers only the form it was made for', () => {
  assert.throws(() => new TextSink(true).text(), /internal/);
  assert.throws(() => new TextSink().bytes(), /internal/);
});
