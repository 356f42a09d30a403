// `import "x.json"` through the JSON fast path gives what the Jsonnet path
// gives: the same value, and for files the fast path declines, the same
// error. Each row is imported once as x.json (fast path) and once as
// x.libsonnet (always parsed as Jsonnet); the two results must be equal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceFile } from '../common/source.js';
import { JsonnetError, evaluate, evaluateToString, parseModule, type Importer } from './index.js';
import { parseJsonImport } from './json-import.js';

function run(fileName: string, text: string, use = '[x, x]', tree = false): string {
  const importer: Importer = {
    load: (_from, path) => {
      if (path !== fileName) throw new Error(`no ${path}`);
      return { foundAt: path, contents: new TextEncoder().encode(text) };
    },
  };
  const main = parseModule(new SourceFile('main.jsonnet', `local x = import ${JSON.stringify(fileName)}; ${use}`));
  try {
    // The text path (manifestInto) and the tree path (manifest(), as show uses it), key order included.
    return tree ? JSON.stringify(evaluate(main, { importer })) : (evaluateToString(main, { importer }) as string);
  } catch (e) {
    if (e instanceof JsonnetError) return 'ERROR ' + e.message.replace(/x\.(json|libsonnet)/g, 'FILE');
    throw e;
  }
}

/** Arrays (or objects) nested `n` deep: manifesting them takes one frame a level. */
const nested = (n: number, open = '[', close = ']'): string => open.repeat(n) + close.repeat(n);

const rows: [string, string, boolean][] = [
  // [name, file text, taken by the fast path]
  ['object', '{"b": [1, 2.5, -0, 1e-3], "a": {"c": null, "d": true, "e": "s\\n\\u00e9\\/"}}', true],
  ['scalar', '  "just a string"  ', true],
  ['number keys and __proto__', '{"10": 1, "2": 2, "__proto__": {"x": 1}, "constructor": 3}', true],
  ['nested empty', '{"a": {}, "b": [], "c": [[{}]]}', true],
  ['duplicate key', '{"a": 1, "a": 2}', false],
  ['duplicate nested key', '{"o": {"k": 1, "k": 2}}', false],
  ['same key in sibling objects', '[{"k": 1}, {"k": 2}]', true],
  ['escaped key', '{"\\u0061": 1, "a": 2}', false],
  ['escaped key, not repeated', '{"\\u0062": 1, "a\\nb": 2, "a": 3}', true],
  ['repeated key after other members', '{"a": {"x": 1, "y": 2}, "b": 3, "c": {"x": 4}, "b": 5}', false],
  ['colons and quotes inside strings', '{"a:b": "c:\\"d:", "e": [":", "\\\\"]}', true],
  ['overflowing number', '{"n": 1e400}', false],
  ['lone surrogate escape', '{"s": "\\ud800"}', false],
  ['surrogate pair escape', '{"s": "\\ud83d\\ude00"}', false],
  ['comment', '{"a": 1 /* c */}', false],
  ['trailing comma', '{"a": 1,}', false],
  ['jsonnet code', '{a: 1 + 2}', false],
  ['string that looks like a key', '{"a": "b:", "b": ["a", "a"]}', true],
  // Written straight from the JSON only while its depth stays below the frame limit (500);
  // past it the value is walked and fails (or not) exactly as the Jsonnet path's.
  ['nested below the frame limit', nested(400), true],
  ['nested at the frame limit', nested(497), true],
  ['nested one below the limit', nested(498), true],
  ['nested to the limit', nested(499), true],
  ['nested past the limit', nested(600), true],
  ['objects nested to the limit', nested(499, '{"a":', '}').replace(/\{"a":\}/, '{}'), true],
  ['objects nested past the limit', nested(520, '{"a":', '}').replace(/\{"a":\}/, '{}'), true],
  ['pass-through inside Jsonnet values', '{"z": [1, {"y": "\\u00e9\\u0001"}], "a": {"10": [], "2": {}}}', true],
];

test('the fast path gives the Jsonnet path result', async (t) => {
  // Also through a value built on top (layers, indexing) and through std functions that manifest.
  const uses = [
    '[x, x]',
    '[x + {}, std.manifestJson(x), std.toString(x)]',
    '{ w: x }',
    '[std.length(x), x == x, std.type(x), if std.isObject(x) then std.objectFieldsAll(x) else x]',
  ];
  for (const [name, text, fast] of rows) {
    await t.test(name, () => {
      assert.equal(parseJsonImport(text) !== undefined, fast);
      for (const use of uses) {
        for (const tree of [false, true]) {
          assert.equal(run('x.json', text, use, tree), run('x.libsonnet', text, use, tree), `${use} tree=${tree}`);
        }
      }
    });
  }
});
