// parseTemplate keeps what the converter needs: annotations and code on the
// node ytt attaches them to, `#!` comments above a node (in sequences too),
// blank lines, key order, source spans, and the block a file ends with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTemplate, YttError } from './index.js';

const FILE = `#! header

#@data/values
---
#! why 80
port: 80 #! left behind

#! renovate: datasource=docker
image: nginx
list:
  #! first
  - a

  - b
name: #@ "x"
#@overlay/match by="name"
- nope
#! closing block
`;

test('annotations, code and comments attach to the node ytt gives them to', () => {
  // the stray `- nope` makes this file invalid YAML; use a valid one
  const t = parseTemplate('f.yaml', FILE.replace('#@overlay/match by="name"\n- nope\n', ''));
  const doc = t.nodes[0];
  assert.ok(doc);
  assert.equal(doc.kind, 'doc');
  assert.deepEqual(
    doc.anns.map((a) => a.name),
    ['data/values'],
  );
  assert.deepEqual(
    doc.comments.map((c) => c.text),
    [' header'],
  );
  const port = t.nodes.find((n) => n.key === 'port')!;
  assert.deepEqual(
    port.comments.map((c) => c.text),
    [' why 80'],
  );
  assert.equal(port.where.line, 6);
  const image = t.nodes.find((n) => n.key === 'image')!;
  assert.deepEqual(
    image.comments.map((c) => c.text),
    [' renovate: datasource=docker'],
  );
  assert.equal(image.blankBefore, true);
  assert.equal(port.blankBefore, false);
  const items = t.nodes.filter((n) => n.kind === 'arrayitem');
  assert.deepEqual(
    items.map((i) => i.scalar),
    ['a', 'b'],
  );
  assert.deepEqual(
    items[0]?.comments.map((c) => c.text),
    [' first'],
  );
  assert.equal(items[1]?.blankBefore, true);
  const name = t.nodes.find((n) => n.key === 'name')!;
  assert.deepEqual(name.code?.text, '"x"');
  assert.deepEqual(
    t.trailingComments.map((c) => c.text),
    [' closing block'],
  );
  assert.equal(t.text.slice(port.span[0], port.span[1]), 'port: 80');
  assert.deepEqual(
    t.nodes.filter((n) => n.kind === 'mapitem' && n.parent === doc.id).map((n) => n.key),
    ['port', 'image', 'list', 'name'],
  );
});

test('annotation arguments are kept as written (the converter reads not_null= from them)', () => {
  const t = parseTemplate(
    's.yaml',
    '#@data/values-schema\n---\n#@schema/nullable\n#@schema/validation min_len=1, not_null=True\nid: ""\n',
  );
  const id = t.nodes.find((n) => n.key === 'id')!;
  assert.deepEqual(
    id.anns.map((a) => [a.name, a.text]),
    [
      ['schema/nullable', ''],
      ['schema/validation', 'min_len=1, not_null=True'],
    ],
  );
});

const BAD: [string, string, RegExp][] = [
  ['plain comment', '#@data/values\n---\n# plain\na: 1\n', /Expected ytt-formatted string/],
  [
    'annotation without node',
    '#@data/values\n---\na: 1\n#@overlay/remove\n',
    /Expected YAML node after annotation 'overlay\/remove'/,
  ],
  ['broken YAML', '#@data/values\n---\na: [1\n', /^f\.yaml:\d+:\d+: yaml: /],
  ['duplicate key', 'a: 1\na: 2\n', /yaml: /],
];
for (const [name, text, re] of BAD) {
  test(`bad input is a YttError saying where: ${name}`, () => {
    assert.throws(
      () => parseTemplate('f.yaml', text),
      (e: unknown) => e instanceof YttError && e.where !== undefined && re.test(e.message),
    );
  });
}

test('the modules a file loads are listed (the converter splits files that need the render context)', () => {
  const t = parseTemplate(
    'f.yaml',
    '#@ load("@ytt:data", "data")\n#@ load("helpers.star", "f")\n#@data/values\n---\na: 1\n',
  );
  assert.deepEqual(t.loads, ['@ytt:data', 'helpers.star']);
});
