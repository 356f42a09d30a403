import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { JsonValue } from '../../lang/common/json.js';
import { formatEval, jsonnetManifest } from './eval.js';

const samples: JsonValue[] = [
  { b: [1, 0.1, 3.14, 1e21, -1e-7, 123456789.125], a: { e: {}, f: [] }, s: 'tab\tquote"\u007f\u0085<&>\u2028é😀' },
  [],
  {},
  'x',
  null,
];

test('eval -o json matches the jsonnet binary (go-jsonnet and C++ jsonnet print alike)', (t) => {
  if (!existsSync('/usr/bin/jsonnet')) {
    t.skip('no /usr/bin/jsonnet');
    return;
  }
  for (const v of samples) {
    const want = execFileSync('/usr/bin/jsonnet', ['-e', JSON.stringify(v)], { encoding: 'utf8' });
    assert.equal(jsonnetManifest(v) + '\n', want, JSON.stringify(v));
  }
  // JSON text cannot carry -0, so compare it through an expression
  assert.equal(jsonnetManifest([-0]) + '\n', execFileSync('/usr/bin/jsonnet', ['-e', '[0*-1]'], { encoding: 'utf8' }));
});

test('eval output ends with the extra newline of fmt.Println', () => {
  assert.equal(formatEval({ a: 1 }, 'json'), '{\n   "a": 1\n}\n\n');
  assert.equal(formatEval({ a: 1 }, 'yaml'), 'a: 1\n\n');
  assert.equal(formatEval('x', 'json'), '"x"\n\n');
  assert.equal(formatEval([], 'yaml'), '[]\n\n');
});
