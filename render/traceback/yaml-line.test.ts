/** lineToPath: the line → path table kubecfg's yamloc documents, plus streams, scalar items and errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TracebackError } from './errors.js';
import { lineToPath } from './yaml-line.js';
import { formatValuePath } from './value-path.js';

const DEPLOYMENT = `apiVersion: v1
kind: Deployment
spec:
  selector:
    matchLabels:
      foo: bar
  template:
    spec:
      containers:
      - name: foo
        env:
        - name: BAR
          value: baz
        - name: QUX
          value: QUX
      - name: bar
        args:
        - --one
        - --two
  replicas: 1
`;

const rows: [number, string][] = [
  [1, '$.apiVersion'],
  [2, '$.kind'],
  [3, '$.spec'],
  [4, '$.spec.selector'],
  [5, '$.spec.selector.matchLabels'],
  [6, '$.spec.selector.matchLabels.foo'],
  [7, '$.spec.template'],
  [8, '$.spec.template.spec'],
  [9, '$.spec.template.spec.containers'],
  [10, '$.spec.template.spec.containers[0].name'],
  [11, '$.spec.template.spec.containers[0].env'],
  [12, '$.spec.template.spec.containers[0].env[0].name'],
  [13, '$.spec.template.spec.containers[0].env[0].value'],
  [14, '$.spec.template.spec.containers[0].env[1].name'],
  [15, '$.spec.template.spec.containers[0].env[1].value'],
  [16, '$.spec.template.spec.containers[1].name'],
  [17, '$.spec.template.spec.containers[1].args'],
  [18, '$.spec.template.spec.containers[1].args[0]'],
  [19, '$.spec.template.spec.containers[1].args[1]'],
  [20, '$.spec.replicas'],
];
for (const [line, want] of rows) {
  test(`lineToPath line ${line} → ${want}`, () => {
    assert.equal(formatValuePath(lineToPath(DEPLOYMENT, line, 'x.yaml').steps), want);
  });
}

test('lineToPath: the document of a --- stream holding the line, and its annotations', () => {
  const text =
    '---\nkind: A\nmetadata:\n  annotations:\n    k: one\n---\nkind: B\nmetadata:\n  annotations:\n    k: two\n  "odd key": 1\n';
  const a = lineToPath(text, 2, 'x.yaml');
  assert.equal(a.documentIndex, 0);
  assert.equal(a.stringAt(['metadata', 'annotations', 'k']), 'one');
  const b = lineToPath(text, 11, 'x.yaml');
  assert.equal(b.documentIndex, 1);
  assert.equal(b.stringAt(['metadata', 'annotations', 'k']), 'two');
  assert.equal(formatValuePath(b.steps), '$.metadata["odd key"]');
});

test('lineToPath: flow mappings and comments do not shift lines', () => {
  const text = '# a comment\na: {b: 1, c: 2}\nd:\n  # another\n  e: [1, 2]\n';
  assert.equal(formatValuePath(lineToPath(text, 2, 'x.yaml').steps), '$.a');
  assert.equal(formatValuePath(lineToPath(text, 5, 'x.yaml').steps), '$.d.e');
});

const bad: [string, string, number, RegExp][] = [
  ['a comment line', '# c\na: 1\n', 1, /x\.yaml:1: no field or list item starts on this line/],
  ['past the end', 'a: 1\n', 9, /x\.yaml:9: no field/],
  ['line 0', 'a: 1\n', 0, /line must be a number from 1/],
  ['broken YAML', 'a: [1\nb: 2\n', 1, /x\.yaml:\d+:\d+: not valid YAML/],
];
for (const [name, text, line, want] of bad) {
  test(`lineToPath error: ${name}`, () => {
    assert.throws(
      () => lineToPath(text, line, 'x.yaml'),
      (e: Error) => e instanceof TracebackError && want.test(e.message),
    );
  });
}

test('lineToPath errors do not quote the file (hazard 26)', () => {
  assert.throws(
    () => lineToPath('secret: [canary-4242\n', 1, 'x.yaml'),
    (e: Error) => e instanceof TracebackError && !e.message.includes('canary-4242'),
  );
});
