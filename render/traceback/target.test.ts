/** tracebackTarget: provenance annotations + the line's path; parseFileLine. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TracebackError } from './errors.js';
import { itemIndex, listItemIndex, parseFileLine, targetSteps, tracebackTarget } from './target.js';
import { formatValuePath } from './value-path.js';

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
  assert.equal(formatValuePath(targetSteps(t)), '$.frontend["my-svc"].spec.ports[0].port');
  assert.deepEqual(targetSteps(t), ['frontend', 'my-svc', 'spec', 'ports', 0, 'port']);
});

test('tracebackTarget: an object without provenance annotations', () => {
  assert.throws(
    () => tracebackTarget(RENDERED, 16, 'out.yaml'),
    (e: Error) =>
      e instanceof TracebackError &&
      /out\.yaml:16: provenance annotation "kubecfg\.github\.com\/provenance-file" not found/.test(e.message),
  );
});

test('tracebackTarget: a List item is found by its identity', () => {
  const t = tracebackTarget(RENDERED, 24, 'out.yaml');
  assert.deepEqual(t.objectSteps, ['lists']);
  assert.deepEqual(t.listItem, { apiVersion: 'v1', kind: 'ConfigMap', name: 'from-list' });
  assert.deepEqual(t.innerSteps, ['metadata', 'name']);
  const value = {
    lists: {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-list' } },
      ],
    },
  };
  assert.equal(listItemIndex(value, t), 1);
  assert.equal(formatValuePath(targetSteps(t, 1)), '$.lists.items[1].metadata.name');
});

test('itemIndex: none or several matching items', () => {
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const id = { apiVersion: 'v1', kind: 'ConfigMap', name: 'a' };
  assert.throws(
    () => itemIndex([cm('b')], id, '$.l'),
    (e: Error) => e instanceof TracebackError && /no item of the List at \$\.l is ConfigMap a/.test(e.message),
  );
  assert.throws(
    () => itemIndex([cm('a'), cm('a')], id, '$.l'),
    (e: Error) => e instanceof TracebackError && /several items/.test(e.message),
  );
  assert.throws(
    () => listItemIndex({ l: 1 }, { provenanceFile: 'f', objectSteps: ['l'], listItem: id, innerSteps: [] }),
    /no longer a List/,
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
