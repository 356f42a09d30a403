// std.format and the `%` operator force only the values their codes use (std.jsonnet's
// behaviour, which go-jsonnet runs): unused elements and fields may be errors, hidden fields
// are reachable by key, and each case agrees with the C++ oracle when it is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { JsonnetError, evaluateSnippet } from '../index.js';
import { serializeCompact } from '../manifest.js';

const ORACLE = '/usr/bin/jsonnet';
const run = (code: string): string => serializeCompact(evaluateSnippet('f.jsonnet', code));

const results: [string, string][] = [
  ["'%(a)s' % {a: 1, b: error 'unused'}", '"1"'],
  ["std.format('%(a)s-%(b)d', {a: 'x', b: 2, c: error 'unused'})", '"x-2"'],
  ["'%(h)s' % {h:: 'hidden'}", '"hidden"'],
  ["'%s %s' % ['a', {k: [1, 'b']}]", '"a {\\"k\\": [1, \\"b\\"]}"'],
  ["'100%%' % []", '"100%"'],
  ["'%5.1f|%-3d|%x' % [3.14159, 7, 255]", '"  3.1|7  |ff"'],
  ["'%*d' % [4, 2]", '"   2"'],
  ["'%d' % 5", '"5"'],
  ["'%s' % [[error 'inner, but inside the used element'][1:]]", '"[ ]"'],
  [
    "local c = {sel: 'job=\"x\"', big: std.range(1, 3)}; ['rate(%(sel)s)' % c, 'up{%(sel)s}' % c]",
    '["rate(job=\\"x\\")", "up{job=\\"x\\"}"]',
  ],
  ["['%(a)s' % {a: i} for i in [1, 2]]", '["1", "2"]'],
];

const errors: [string, RegExp][] = [
  ["'%s' % [1, error 'second']", /Too many values to format: 2, expected 1/],
  ["'%s %s' % [1]", /Not enough values to format: 1, expected more than 1/],
  ["'%(a)s' % {b: 1}", /No such field: a/],
  ["'%s' % {a: 1}", /Mapping keys required/],
  ["'%(a)s' % {a: error 'used'}", /used/],
  ["'%d' % ['x']", /Format required number at 0, got string/],
  ["'%(a' % {a: 1}", /Truncated format code/],
  ['std.format(1, [])', /Unexpected type number/],
];

test('std.format forces only the values its codes use', () => {
  for (const [code, want] of results) assert.equal(run(code), want, code);
});

test('std.format errors: counts, keys and the used value', () => {
  for (const [code, message] of errors) {
    assert.throws(
      () => run(code),
      (e: unknown) => e instanceof JsonnetError && message.test(e.message),
      code,
    );
  }
});

test('the same format string reused with other values (parsed codes are cached)', () => {
  assert.equal(run("local f = '%(n)s=%(v)d'; [f % {n: 'a', v: 1}, f % {n: 'b', v: 2}]"), '["a=1", "b=2"]');
  assert.throws(() => run("['%(n' % {n: 1}, '%(n' % {n: 2}]"), /Truncated format code/);
});

test('agrees with the C++ oracle', (t) => {
  if (!existsSync(ORACLE)) return t.skip('no /usr/bin/jsonnet');
  for (const [code, want] of results) {
    const r = spawnSync(ORACLE, ['-e', code], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${code}: ${r.stderr}`);
    assert.equal(JSON.stringify(JSON.parse(r.stdout)), JSON.stringify(JSON.parse(want)), code);
  }
  for (const [code] of errors) {
    const r = spawnSync(ORACLE, ['-e', code], { encoding: 'utf8' });
    assert.notEqual(r.status, 0, `${code} should fail in the oracle too`);
  }
});
