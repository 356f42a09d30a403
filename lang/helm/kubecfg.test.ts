// kubecfg's parseHelmChart shape (CRDs, namespace fix-up, label check) and the content-hash caches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeTar } from '../../oci/tar-writer.js';
import { gzipDeterministic } from '../../oci/gzip.js';
import type { JsonValue } from '../common/json.js';
import { ChartError, clearHelmCaches, configureHelmCaches, helmCacheStats, parseHelmChart } from './index.js';
import { DEFAULT_CHART_CACHE_BYTES, DEFAULT_RENDER_CACHE_BYTES, ByteLru } from './cache.js';
import { parseKubecfgDocuments } from './kubecfg.js';

const enc = new TextEncoder();

function tgz(files: Record<string, string>): Uint8Array {
  return gzipDeterministic(writeTar(Object.entries(files).map(([path, text]) => ({ path, data: enc.encode(text) }))));
}

const base = {
  'c/Chart.yaml':
    'apiVersion: v2\nname: c\nversion: 1.0.0\ndependencies:\n- name: yes-chart\n  condition: yes-chart.enabled\n- name: no-chart\n  condition: no-chart.enabled\n',
  'c/values.yaml': 'no-chart:\n  enabled: false\n',
  'c/crds/widget.yaml':
    'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.x.io\n',
  'c/crds/gadget.json':
    '{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "gadgets.x.io"}}',
  'c/crds/README.md': 'not a manifest',
  'c/templates/objs.yaml': [
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: no-ns\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: has-ns\n  namespace: other\n',
    'kind: Bare\n',
    'kind: Odd\nmetadata: text\n',
  ].join('---\n'),
  'c/charts/yes-chart/Chart.yaml': 'apiVersion: v2\nname: yes-chart\nversion: 0.1.0\n',
  'c/charts/yes-chart/crds/sub.yaml': 'kind: CustomResourceDefinition\nmetadata:\n  name: subs.x.io\n',
  'c/charts/no-chart/Chart.yaml': 'apiVersion: v2\nname: no-chart\nversion: 0.1.0\n',
  'c/charts/no-chart/crds/gone.yaml': 'kind: CustomResourceDefinition\nmetadata:\n  name: gone.x.io\n',
};

test('kubecfg shape: CRDs of the chart and enabled subcharts, then templates with namespaces filled in', () => {
  clearHelmCaches();
  const out = parseHelmChart(tgz(base), 'r', 'ns1', {});
  assert.deepEqual(Object.keys(out).sort(), [
    'c/charts/yes-chart/crds/sub.yaml',
    'c/crds/gadget.json',
    'c/crds/widget.yaml',
    'c/templates/objs.yaml',
  ]);
  // CRDs are taken as they are: no namespace added.
  assert.deepEqual(out['c/crds/widget.yaml'], [
    { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.x.io' } },
  ]);
  assert.deepEqual(out['c/templates/objs.yaml'], [
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'no-ns', namespace: 'ns1' } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'has-ns', namespace: 'other' } },
    { kind: 'Bare', metadata: { namespace: 'ns1' } },
    { kind: 'Odd', metadata: 'text' },
  ]);
});

test('kubecfg shape: a CRD that is not YAML names its file', () => {
  assert.throws(
    () => parseHelmChart(tgz({ ...base, 'c/crds/bad.yaml': 'a: [\n' }), 'r', 'n', {}),
    (e: unknown) =>
      e instanceof ChartError && e.message.startsWith('failed to parse CRD in file "c/crds/bad.yaml" from helm chart:'),
  );
});

test('kubecfg shape: labels and annotations must be string maps', () => {
  const files = {
    ...base,
    'c/templates/objs.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  labels:\n    n: 1\n',
  };
  // Checked before the namespace is filled in, as kubecfg does (hence the empty namespace).
  assert.throws(() => parseHelmChart(tgz(files), 'r', 'ns1', {}), {
    message:
      'labels map contains invalid (non-string) values in resource: v1/Deployment.apps./d (in c/templates/objs.yaml)',
  });
});

test('cache: the same bytes are parsed once and the same call rendered once', () => {
  clearHelmCaches();
  const chart = tgz(base);
  const first = parseHelmChart(chart, 'r', 'ns1', { a: 1 });
  assert.deepEqual(helmCacheStats(), {
    ...helmCacheStats(),
    chartHits: 0,
    chartMisses: 1,
    renderHits: 0,
    renderMisses: 1,
  });
  const again = parseHelmChart(Uint8Array.from(chart), 'r', 'ns1', { a: 1 });
  assert.equal(helmCacheStats().chartHits, 1);
  assert.equal(helmCacheStats().renderHits, 1);
  assert.deepEqual(again, first);
  // Other arguments: the parsed chart is reused, the render is not.
  parseHelmChart(chart, 'r', 'ns2', { a: 1 });
  assert.equal(helmCacheStats().chartHits, 2);
  assert.equal(helmCacheStats().renderMisses, 2);
});

test('cache: callers get copies, so mutating a result does not leak into the next call', () => {
  clearHelmCaches();
  const chart = tgz(base);
  const first = parseHelmChart(chart, 'r', 'ns1', {});
  (first['c/templates/objs.yaml']![0] as { [k: string]: JsonValue }).kind = 'Changed';
  const second = parseHelmChart(chart, 'r', 'ns1', {});
  assert.equal((second['c/templates/objs.yaml']![0] as { kind: string }).kind, 'ConfigMap');
  assert.equal(helmCacheStats().renderHits, 1);
});

test('cache: seeded randomness renders the same bytes for the same input', () => {
  const files = { ...base, 'c/templates/objs.yaml': 'kind: R\nid: {{ randAlphaNum 12 }}\n' };
  clearHelmCaches();
  const a = parseHelmChart(tgz(files), 'r', 'n', { v: 1 });
  clearHelmCaches();
  const b = parseHelmChart(tgz(files), 'r', 'n', { v: 1 });
  assert.equal(helmCacheStats().renderHits, 0);
  assert.deepEqual(a, b);
});

test('cache: byte bounds evict the least recently used entries', () => {
  const lru = new ByteLru<string>(10);
  lru.set('a', 'A', 4);
  lru.set('b', 'B', 4);
  assert.equal(lru.get('a'), 'A'); // a is now the most recent
  lru.set('c', 'C', 4); // 12 > 10: b goes
  assert.equal(lru.get('b'), undefined);
  assert.equal(lru.get('a'), 'A');
  lru.set('huge', 'H', 11); // larger than the bound: not kept, nothing evicted
  assert.equal(lru.get('huge'), undefined);
  assert.equal(lru.size, 2);
  lru.resize(4);
  assert.equal(lru.size, 1);
  assert.equal(lru.bytes, 4);
});

test('cache: configurable bounds; a zero bound keeps nothing', () => {
  clearHelmCaches();
  configureHelmCaches({ chartBytes: 0, renderBytes: 0 });
  try {
    const chart = tgz(base);
    parseHelmChart(chart, 'r', 'n', {});
    parseHelmChart(chart, 'r', 'n', {});
    assert.equal(helmCacheStats().chartHits, 0);
    assert.equal(helmCacheStats().renderHits, 0);
  } finally {
    configureHelmCaches({ chartBytes: DEFAULT_CHART_CACHE_BYTES, renderBytes: DEFAULT_RENDER_CACHE_BYTES });
    clearHelmCaches();
  }
});

// kubecfg splits with apimachinery's YAMLReader: a document holding no value stays as null.
const documentCases: { name: string; text: string; want: JsonValue[] }[] = [
  { name: 'empty file', text: '', want: [] },
  { name: 'one blank line (a disabled template)', text: '\n', want: [null] },
  { name: 'comments only', text: '# nothing here\n', want: [null] },
  { name: 'object then trailing separator', text: 'a: 1\n---\n', want: [{ a: 1 }] },
  { name: 'object, separator, blank line', text: 'a: 1\n---\n\n', want: [{ a: 1 }, null] },
  { name: 'leading separator', text: '---\na: 1\n', want: [{ a: 1 }] },
  { name: 'two separators in a row', text: 'a: 1\n---\n---\nb: 2\n', want: [{ a: 1 }, { b: 2 }] },
  { name: 'three separators in a row', text: 'a: 1\n---\n---\n---\nb: 2', want: [{ a: 1 }, null, { b: 2 }] },
  { name: 'empty document between objects', text: 'a: 1\n---\n\n---\nb: 2\n', want: [{ a: 1 }, null, { b: 2 }] },
  { name: 'separator with a comment', text: 'a: 1\n--- # next\nb: 2\n', want: [{ a: 1 }, { b: 2 }] },
  { name: 'explicit null document', text: 'a: 1\n---\nnull\n', want: [{ a: 1 }, null] },
];

for (const c of documentCases) {
  test(`kubecfg documents: ${c.name}`, () => {
    assert.deepEqual(parseKubecfgDocuments('t.yaml', c.text), c.want);
  });
}

test('kubecfg documents: text after a separator is an error naming the line', () => {
  assert.throws(() => parseKubecfgDocuments('c/templates/t.yaml', 'a: 1\n--- b: 2\n'), {
    message: 'error parsing c/templates/t.yaml line 2: invalid YAML document separator: b: 2',
  });
});

test('kubecfg documents: a YAML error in a later document names the file', () => {
  assert.throws(
    () => parseKubecfgDocuments('t.yaml', 'a: 1\n---\nb: 2\nc: [\n'),
    (e: unknown) => e instanceof ChartError && e.message.startsWith('error parsing t.yaml'),
  );
});

test('kubecfg shape: a template that renders blank is a null item, an empty one an empty list', () => {
  clearHelmCaches();
  const files = {
    ...base,
    'c/templates/off.yaml': '{{- if .Values.on }}\nkind: X\n{{- end }}\n',
    'c/templates/none.yaml': '{{- if .Values.on }}kind: X{{ end }}',
    // Without `{{-` the newlines after the separator are left: an empty document.
    'c/templates/mixed.yaml': 'kind: A\n---\n{{ if .Values.on }}\nkind: B\n{{ end }}\n',
  };
  const out = parseHelmChart(tgz(files), 'r', 'ns1', {});
  assert.deepEqual(out['c/templates/off.yaml'], [null]);
  assert.deepEqual(out['c/templates/none.yaml'], []);
  assert.deepEqual(out['c/templates/mixed.yaml'], [{ kind: 'A', metadata: { namespace: 'ns1' } }, null]);
});
