/**
 * The Helm Integration example of kubecfg's documentation, end to end: a
 * chart of our own with the shape of ingress-nginx (two vendored versions),
 * rendered through importbin + kubecfg.parseHelmChart + kubecfg.fold, then
 * patched in Jsonnet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, ImportError, parseModule, type Importer } from '../../lang/jsonnet/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { kubecfgLibsonnet, kubecfgNatives, findObjects } from '../../render/index.js';
import { writeTar } from '../../oci/tar-writer.js';
import { gzipDeterministic } from '../../oci/gzip.js';
import { clearHelmCaches, helmCacheStats } from '../../lang/helm/index.js';

const enc = new TextEncoder();

function chart(version: string): Uint8Array {
  const files: Record<string, string> = {
    'Chart.yaml': `apiVersion: v2\nname: ingress-nginx\nversion: ${version}\nappVersion: "1.8.1"\n`,
    'values.yaml':
      'nameOverride: ""\nfullNameOverride: ""\ncommonLabels: {}\ncontroller:\n  minReadySeconds: 0\n  replicaCount: 1\n',
    'templates/_helpers.tpl': [
      '{{- define "ingress-nginx.fullname" -}}',
      '{{- default (printf "%s-%s" .Release.Name .Chart.Name) .Values.fullNameOverride | trunc 63 | trimSuffix "-" -}}',
      '{{- end -}}',
      '{{- define "ingress-nginx.labels" -}}',
      'app.kubernetes.io/name: {{ default .Chart.Name .Values.nameOverride }}',
      'app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}',
      '{{- with .Values.commonLabels }}',
      '{{ toYaml . }}',
      '{{- end }}',
      '{{- end -}}',
    ].join('\n'),
    'templates/controller-deployment.yaml': [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: {{ include "ingress-nginx.fullname" . }}-controller',
      '  namespace: {{ .Release.Namespace }}',
      '  labels:',
      '    {{- include "ingress-nginx.labels" . | nindent 4 }}',
      'spec:',
      '  replicas: {{ .Values.controller.replicaCount }}',
      '  minReadySeconds: {{ .Values.controller.minReadySeconds }}',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: controller',
      '        image: registry.k8s.io/ingress-nginx/controller:v{{ .Chart.AppVersion }}',
    ].join('\n'),
    'templates/controller-service.yaml': [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: {{ include "ingress-nginx.fullname" . }}-controller',
      '  namespace: {{ .Release.Namespace }}',
      'spec:',
      '  ports:',
      '  - name: http',
      '    port: 80',
    ].join('\n'),
    'templates/ingressclass.yaml': 'apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\n',
  };
  const entries = Object.entries(files).map(([p, text]) => ({ path: `ingress-nginx/${p}`, data: enc.encode(text) }));
  return gzipDeterministic(writeTar(entries));
}

const program = `
local kubecfg = import 'kubecfg.libsonnet';
local data = {
  '4.7.1': importbin './ingress-nginx-4.7.1.tgz',
  '4.6.1': importbin './ingress-nginx-4.6.1.tgz',
};
{
  _config:: { version: std.extVar('version') },
  values:: {
    nameOverride: 'nginx-example',
    fullNameOverride: 'nginx-example',
    commonLabels: { app: 'nginx-example' },
    controller: { minReadySeconds: 10 },
  },
  valuesByVersion:: { '4.7.1': { commonLabels+: { extra: 'label' } }, '4.6.1': {} },
  renderHelm::
    kubecfg.fold(
      kubecfg.layouts.gvkNsName,
      kubecfg.parseHelmChart(data[$._config.version], 'nginx-example', 'ingress',
                             $.values + $.valuesByVersion[$._config.version]),
      {}
    ),
  objects: $.renderHelm {
    'apps/v1.Deployment'+: { ingress+: { 'nginx-example-controller'+: { spec+: { replicas: 20 } } } },
  },
}`;

function importer(): Importer {
  const files: Record<string, Uint8Array> = {
    'kubecfg.libsonnet': enc.encode(kubecfgLibsonnet),
    'ingress-nginx-4.7.1.tgz': chart('4.7.1'),
    'ingress-nginx-4.6.1.tgz': chart('4.6.1'),
  };
  return {
    load(_from, path) {
      const name = path.replace(/^\.\//, '');
      const contents = files[name];
      if (!contents) throw new ImportError(`couldn't open import "${path}"`);
      return { foundAt: `/chart-test/${name}`, contents };
    },
  };
}

for (const version of ['4.6.1', '4.7.1']) {
  test(`spec Helm example renders and patches ingress-nginx ${version}`, () => {
    const module = parseModule(new SourceFile('/chart-test/show.jsonnet', program));
    const value = evaluate(module, {
      importer: importer(),
      natives: kubecfgNatives,
      extVars: { version: { kind: 'string', value: version } },
    });
    const found = findObjects(value);
    const names = found.map(
      (f) => `${f.object.apiVersion}.${f.object.kind}/${(f.object.metadata as { name: string }).name}`,
    );
    assert.deepEqual(names.sort(), [
      'apps/v1.Deployment/nginx-example-controller',
      'networking.k8s.io/v1.IngressClass/nginx',
      'v1.Service/nginx-example-controller',
    ]);
    const deployment = found.find((f) => f.object.kind === 'Deployment')!.object as any;
    assert.equal(deployment.spec.replicas, 20);
    assert.equal(deployment.spec.minReadySeconds, 10);
    assert.equal(deployment.metadata.namespace, 'ingress');
    const labels = deployment.metadata.labels;
    assert.equal(labels.app, 'nginx-example');
    assert.equal(labels.extra, version === '4.7.1' ? 'label' : undefined);
  });
}

test('the daemon renders one chart once: a second evaluation is a render cache hit', () => {
  clearHelmCaches();
  const run = (): unknown => {
    const module = parseModule(new SourceFile('/chart-test/show.jsonnet', program));
    return evaluate(module, {
      importer: importer(),
      natives: kubecfgNatives,
      extVars: { version: { kind: 'string', value: '4.7.1' } },
    });
  };
  const first = run();
  assert.deepEqual(
    [helmCacheStats().chartMisses, helmCacheStats().renderMisses, helmCacheStats().renderHits],
    [1, 1, 0],
  );
  const second = run();
  assert.equal(helmCacheStats().renderHits, 1);
  assert.equal(helmCacheStats().chartMisses, 1);
  assert.deepEqual(second, first);
});
