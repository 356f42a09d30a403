/** tracebackTarget: provenance annotations + the line's path; parseFileLine. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TracebackError } from './errors.js';
import { parseFileLine, tracebackTarget } from './target.js';

const RENDERED = `---
apiVersion: v1
kind: Service
metadata:
  annotations:
    kubecfg.github.com/provenance-file: app.jsonnet
    kubecfg.github.com/provenance-path: $.frontend["my-svc"]
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  annotations:
    kubecfg.github.com/provenance-file: app.jsonnet
    kubecfg.github.com/provenance-path: $.lists.item
  name: from-list
`;

test('tracebackTarget joins the object path and the line path', () => {
  const t = tracebackTarget(RENDERED, 11, 'out.yaml');
  assert.equal(t.provenanceFile, 'app.jsonnet');
  assert.equal(t.fullPath, '$.frontend["my-svc"].spec.ports[0].port');
  assert.deepEqual(t.steps, ['frontend', 'my-svc', 'spec', 'ports', 0, 'port']);
});

test('tracebackTarget: an object without provenance annotations', () => {
  assert.throws(
    () => tracebackTarget(RENDERED, 16, 'out.yaml'),
    (e: Error) =>
      e instanceof TracebackError &&
      /out\.yaml:16: provenance annotation "kubecfg\.github\.com\/provenance-file" not found/.test(e.message),
  );
});

test('tracebackTarget: List items carry no index', () => {
  assert.throws(
    () => tracebackTarget(RENDERED, 24, 'out.yaml'),
    (e: Error) => e instanceof TracebackError && /came from a List at \$\.lists/.test(e.message),
  );
});

const args: [string, { file: string; line: number } | RegExp][] = [
  ['output.yaml:12', { file: 'output.yaml', line: 12 }],
  ['dir/a:b.yaml:3', { file: 'dir/a:b.yaml', line: 3 }],
  ['output.yaml', /argument must be <filename\.yaml>:<linenumber>/],
  ['output.yaml:x', /argument must be/],
  [':12', /argument must be/],
];
for (const [arg, want] of args) {
  test(`parseFileLine ${arg}`, () => {
    if (want instanceof RegExp)
      assert.throws(
        () => parseFileLine(arg),
        (e: Error) => e instanceof TracebackError && want.test(e.message),
      );
    else assert.deepEqual(parseFileLine(arg), want);
  });
}
