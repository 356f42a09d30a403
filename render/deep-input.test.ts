/** Hazard 14: values nested far beyond any real manifest fail with a RenderError, never a RangeError or a crash. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonValue } from '../lang/common/json.js';
import {
  findObjects,
  formatEval,
  formatJsonObjects,
  formatYamlDocuments,
  kubecfgNatives,
  RenderError,
} from './index.js';

const DEPTH = 100000;

function nested(depth: number): JsonValue {
  let v: JsonValue = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

const tooDeep = (e: unknown): boolean =>
  e instanceof RenderError && e.code === 'RENDER_TOO_DEEP' && /input too deeply nested/.test(e.message);

test('printers and discovery refuse absurd nesting', () => {
  const v = nested(DEPTH);
  const obj = { apiVersion: 'v1', kind: 'X', data: v };
  assert.throws(() => formatYamlDocuments([obj]), tooDeep);
  assert.throws(() => formatJsonObjects([obj]), tooDeep);
  assert.throws(() => formatEval(v, 'json'), tooDeep);
  assert.throws(() => findObjects(v), tooDeep);
  assert.throws(() => kubecfgNatives.manifestYaml!.fn([v]), tooDeep);
  assert.throws(() => kubecfgNatives.manifestJson!.fn([v, 2]), tooDeep);
});

test('parsers refuse absurd nesting', () => {
  const text = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
  // Go's decoder stops at 10000 levels with its own message; ours is iterative, so it gets there too.
  assert.throws(
    () => kubecfgNatives.parseJson!.fn([text]),
    (e: unknown) => e instanceof RenderError && e.message === "parseJson: invalid character '[' exceeded max depth",
  );
  assert.throws(
    () => kubecfgNatives.parseYaml!.fn([text]),
    (e: unknown) => e instanceof RenderError && /exceeded max depth of 500/.test(e.message),
  );
});
