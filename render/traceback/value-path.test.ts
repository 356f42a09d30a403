/** Value paths as kubecfg writes them ↔ path steps. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TracebackError } from './errors.js';
import { formatValuePath, parseValuePath } from './value-path.js';

const rows: [string, (string | number)[]][] = [
  ['$', []],
  ['$.deployment', ['deployment']],
  ['$.a.b[0].c', ['a', 'b', 0, 'c']],
  ['$["app.kubernetes.io/name"]', ['app.kubernetes.io/name']],
  ['$["quote\\"d"][12]', ['quote"d', 12]],
  ['$["local"]', ['local']],
  ['$["tab\\there"]', ['tab\there']],
];
for (const [text, steps] of rows) {
  test(`value path ${text}`, () => {
    assert.deepEqual(parseValuePath(text), steps);
    assert.equal(formatValuePath(steps), text);
  });
}

test('value path: Go escapes \\x, \\u and \\U', () => {
  assert.deepEqual(parseValuePath('$["\\x41\\u00e9\\U0001F600"]'), ['Aé😀']);
});

for (const bad of ['deployment', '$.', '$[x]', '$["open', '$["a"', '$..a', '$["\\q"]']) {
  test(`value path refused: ${bad}`, () => {
    assert.throws(() => parseValuePath(bad), TracebackError);
  });
}
