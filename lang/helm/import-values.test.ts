// Dependencies' import-values (the `exports` string form and the child/parent form), as Helm's processImportValues.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChartError, loadChart, renderTemplates } from './index.js';

const enc = new TextEncoder();

function files(imports: string, parentValues = 'shared: parent\n'): Map<string, Uint8Array> {
  const f: Record<string, string> = {
    'p/Chart.yaml': `apiVersion: v2\nname: p\nversion: 1.0.0\ndependencies:\n- name: sub\n  import-values:\n${imports}`,
    'p/values.yaml': parentValues,
    'p/templates/t.yaml':
      'myint: {{ .Values.myint }}\nshared: {{ .Values.shared }}\nport: {{ .Values.fromChild.port }}\nsubPort: {{ .Values.sub.config.server.port }}\n',
    'p/charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
    'p/charts/sub/values.yaml':
      'exports:\n  data:\n    myint: 99\n    shared: child\nconfig:\n  server:\n    port: 8080\n',
    'p/charts/sub/templates/s.yaml': 'port: {{ .Values.config.server.port }}\n',
  };
  return new Map(Object.entries(f).map(([k, v]) => [k, enc.encode(v)]));
}

const render = (f: Map<string, Uint8Array>, values: Record<string, unknown> = {}): string =>
  renderTemplates(loadChart(f), { releaseName: 'r', namespace: 'n', values }).get('p/templates/t.yaml')!;

const BOTH = '  - data\n  - child: config.server\n    parent: fromChild\n';

test('import-values: both forms land in the parent values; the parent own values win', () => {
  assert.equal(render(files(BOTH)), 'myint: 99\nshared: parent\nport: 8080\nsubPort: 8080\n');
});

test('import-values: imported values stay below user values', () => {
  assert.equal(
    render(files(BOTH), { myint: 1, fromChild: { port: 1 } }),
    'myint: 1\nshared: parent\nport: 1\nsubPort: 8080\n',
  );
});

test('import-values: without a parent value the child value is used', () => {
  assert.equal(render(files(BOTH, '{}\n')), 'myint: 99\nshared: child\nport: 8080\nsubPort: 8080\n');
});

test('import-values: a missing child table is skipped (Helm only warns)', () => {
  const f = files('  - nothing\n  - child: no.such\n    parent: fromChild\n');
  f.set('p/templates/t.yaml', enc.encode('myint: {{ .Values.myint }}\nfromChild: {{ hasKey .Values "fromChild" }}\n'));
  assert.equal(render(f), 'myint: \nfromChild: false\n');
});

test('import-values: the first import of a key wins over later ones', () => {
  const f = files('  - child: config.server\n    parent: fromChild\n  - child: exports.data\n    parent: fromChild\n');
  f.set('p/templates/t.yaml', enc.encode('{{ toYaml .Values.fromChild }}\n'));
  assert.equal(render(f), 'myint: 99\nport: 8080\nshared: child\n');
});

test('import-values: a malformed entry is a chart error naming the dependency', () => {
  assert.throws(
    () => loadChart(files('  - child: 5\n    parent: x\n')),
    (e: unknown) => {
      return e instanceof ChartError && /dependency sub: import-values entries must be/.test(e.message);
    },
  );
});
