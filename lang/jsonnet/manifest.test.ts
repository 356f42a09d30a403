// JSON output as the go-jsonnet `jsonnet` command prints it, and the error
// formatter's pretty mode and trace cropping.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SourceFile } from '../common/source.js';
import { jsonObject } from '../common/json.js';
import { JsonnetError, formatSpan } from './errors.js';
import { formatNumberJson, quoteString, serializeJson, serializeCompact } from './manifest.js';

test('numbers', () => {
  const table: [number, string][] = [
    [0, '0'],
    [-0, '-0'],
    [42, '42'],
    [-7, '-7'],
    [1e20, '100000000000000000000'],
    [1e21, '1000000000000000000000'],
    [0.5, '0.5'],
    [0.1, '0.10000000000000001'],
    [1 / 3, '0.33333333333333331'],
    [1e-5, '1.0000000000000001e-05'],
    [1e15 + 0.3, '1000000000000000.2'],
    [-1.5e-7, '-1.4999999999999999e-07'],
    [123.456, '123.456'],
    [2 ** 53 + 2, '9007199254740994'],
  ];
  for (const [v, want] of table) assert.equal(formatNumberJson(v), want, String(v));
});

test('strings', () => {
  assert.equal(quoteString('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(quoteString('\b\f\n\r\t\u0000\u001f'), '"\\b\\f\\n\\r\\t\\u0000\\u001f"');
  assert.equal(quoteString('\u007f\u0080\u009f\u00a0é😀'), '"\\u007f\\u0080\\u009f\u00a0é😀"');
  assert.equal(quoteString('\ud800x'), '"\ufffdx"');
});

test('containers', () => {
  const v = jsonObject([
    ['b', [1, [], {}]],
    ['a', null],
    ['__proto__', true],
  ]);
  assert.equal(
    serializeJson(v),
    '{\n   "__proto__": true,\n   "a": null,\n   "b": [\n      1,\n      [ ],\n      { }\n   ]\n}',
  );
  assert.equal(serializeCompact(v), '{"__proto__": true, "a": null, "b": [1, [ ], { }]}');
  assert.equal(
    serializeCompact(
      jsonObject([
        ['é', 1],
        ['z', 2],
        ['😀', 3],
        ['\uffff', 4],
      ]),
    ),
    '{"z": 2, "é": 1, "\uffff": 4, "😀": 3}',
  );
});

test('spans print as go-jsonnet locations', () => {
  const f = new SourceFile('f.jsonnet', 'ab\ncé d\n');
  assert.equal(formatSpan({ file: f, start: 0, end: 2 }), 'f.jsonnet:1:1-3');
  assert.equal(formatSpan({ file: f, start: 3, end: 3 }), 'f.jsonnet:2:1');
  assert.equal(formatSpan({ file: f, start: 5, end: 6 }), 'f.jsonnet:2:4-5');
  assert.equal(formatSpan({ file: f, start: 1, end: 6 }), 'f.jsonnet:(1:2)-(2:5)');
});

test('runtime traces: pretty mode and cropping', () => {
  const f = new SourceFile('t', 'x');
  const frames = Array.from({ length: 30 }, () => ({ span: { file: f, start: 0, end: 1 }, name: 'function <f>' }));
  const e = new JsonnetError('runtime', 'boom', undefined, [{ span: 'During evaluation', name: '' }, ...frames]);
  const plain = e.format();
  assert.equal(plain.split('\n').filter((l) => l === '\t...').length, 1);
  assert.equal(plain.split('\n').filter((l) => l.startsWith('\tt:1:1-2')).length, 19);
  const pretty = e.format({ pretty: true, maxFrames: 9 });
  assert.match(pretty, /\t\.\.\. \(skipped 22 frames\)\n/);
  assert.match(pretty, /^RUNTIME ERROR: boom\n-{49}\n\tt:1:1-2\tfunction <f>\n\nx\n\n/);
});

/** go-jsonnet's unparseString, one character at a time: the oracle for quoteString's search. */
function unparseStringByChar(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) out += s[i]! + s[++i]!;
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += s[i];
  }
  return out + '"';
}

test('quoteString escapes as go-jsonnet, character by character', () => {
  const alphabet = [
    'a',
    'é',
    '"',
    '\\',
    '\n',
    '\t',
    '\u0001',
    '\u007f',
    '\u0085',
    '\u009f',
    '\u00a0',
    '\ud83d',
    '\ude00',
    '😀',
    '\u2028',
    ' ',
  ];
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (parts) => {
      const s = parts.join('');
      assert.equal(quoteString(s), unparseStringByChar(s));
    }),
    { numRuns: 2000 },
  );
});
