/** Hook files → URL paths, as kubecfg registers them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RouteError, routeOf, routeTable } from './routes.js';

const rows: [string, string][] = [
  ['sync.jsonnet', '/sync'],
  ['./sync.jsonnet', '/sync'],
  ['hooks/sync-pods.jsonnet', '/hooks/sync-pods'],
  ['/abs/dir/sync.jsonnet', '/abs/dir/sync'],
  ['hook.yakl', '/hook'],
  ['plain.libsonnet', '/plain.libsonnet'],
];
for (const [file, route] of rows) test(`route of ${file}`, () => assert.equal(routeOf(file), route));

test('routeTable keeps argument order', () => {
  assert.deepEqual(
    [...routeTable(['b.jsonnet', 'a.jsonnet'])],
    [
      ['/b', 'b.jsonnet'],
      ['/a', 'a.jsonnet'],
    ],
  );
});

const clashes: [string[], RegExp][] = [
  [['a.jsonnet', './a.jsonnet'], /a\.jsonnet and \.\/a\.jsonnet would both be served at \/a/],
  [['a.jsonnet', 'a.yakl'], /both be served at \/a/],
  [['healthz.jsonnet'], /route \/healthz is the server's own/],
  [['metrics.jsonnet'], /route \/metrics is the server's own/],
];
for (const [files, want] of clashes) {
  test(`routeTable refuses ${files.join(' ')}`, () => {
    assert.throws(
      () => routeTable(files),
      (e: Error) => e instanceof RouteError && want.test(e.message),
    );
  });
}
