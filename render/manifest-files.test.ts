import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectsFromManifestFile } from './manifest-files.js';
import { renderShow } from './show.js';
import { RenderError } from './errors.js';

test('yaml documents and lists', () => {
  const text =
    '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ServiceList\nitems:\n- metadata: {name: s}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n';
  assert.deepEqual(
    objectsFromManifestFile('m.yaml', text).map(
      (o) => `${o.apiVersion}/${o.kind}/${(o.metadata as { name: string }).name}`,
    ),
    ['v1/ConfigMap/a', 'v1/Service/s', 'v1/Pod/p'],
  );
});

test('json file', () => {
  assert.deepEqual(objectsFromManifestFile('m.json', '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}}'), [
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } },
  ]);
});

const errors: [string, string, string][] = [
  ['m.yaml', 'apiVersion: v1\n', "error reading m.yaml (document 1): Object 'Kind' is missing"],
  ['m.yaml', 'kind: A\n---\n# only a comment\n', "error reading m.yaml (document 2): Object 'Kind' is missing"],
  ['m.json', '[1]', 'error reading m.json: expected an object, found []interface {}'],
  [
    'm.json',
    '{"kind":"AList","items":{}}',
    'error reading m.json: items of a list must be an array, found map[string]interface {}',
  ],
  ['m.json', '{', 'error reading m.json: unexpected end of JSON input'],
  ['m.yml', 'kind: A\n', 'unknown file extension: m.yml'],
];

test('errors name the file and document, never the content', () => {
  for (const [file, text, message] of errors) {
    assert.throws(
      () => objectsFromManifestFile(file, text),
      (e: unknown) => e instanceof RenderError && e.message === message,
      message,
    );
  }
});

test('show mixes manifest files and Jsonnet values; manifests get no provenance', () => {
  const out = renderShow(
    [
      {
        file: 'a.yaml',
        objects: objectsFromManifestFile('a.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n'),
      },
      { file: 'b.jsonnet', value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } } },
    ],
    { format: 'yaml', showProvenance: true },
  );
  assert.equal(
    out,
    '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    kubecfg.github.com/provenance-file: b.jsonnet\n    kubecfg.github.com/provenance-path: $\n  name: b\n',
  );
});
