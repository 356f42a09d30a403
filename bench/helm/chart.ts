/**
 * A generated chart the size and shape of ingress-nginx (~20 templates:
 * Deployments, Services, ConfigMaps and ServiceAccounts for five
 * components, sharing `_helpers.tpl` defines through include/nindent,
 * ranges over maps and lists, toYaml, with/if), and a Jsonnet program that
 * builds the same objects with functions and comprehensions, so both
 * engines do comparable work. Written for this benchmark, not vendored.
 */
import { writeTar } from '../../oci/tar-writer.js';
import { gzipDeterministic } from '../../oci/gzip.js';

const COMPONENTS = ['controller', 'admission', 'backend', 'metrics', 'webhook'];

const helpers = `{{- define "app.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "app.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "app.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- define "app.selectorLabels" -}}
app.kubernetes.io/name: {{ include "app.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- define "app.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "app.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}
{{- define "app.image" -}}
{{ .registry }}/{{ .repository }}:{{ .tag }}
{{- end -}}
`;

function deployment(c: string): string {
  return `{{- if .Values.${c}.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "app.fullname" . }}-${c}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
    app.kubernetes.io/component: ${c}
  {{- with .Values.${c}.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  replicas: {{ .Values.${c}.replicaCount }}
  selector:
    matchLabels:
      {{- include "app.selectorLabels" . | nindent 6 }}
      app.kubernetes.io/component: ${c}
  template:
    metadata:
      labels:
        {{- include "app.selectorLabels" . | nindent 8 }}
        app.kubernetes.io/component: ${c}
    spec:
      serviceAccountName: {{ include "app.fullname" . }}-${c}
      containers:
        - name: ${c}
          image: {{ include "app.image" .Values.${c}.image }}
          args:
            {{- range $k, $v := .Values.${c}.extraArgs }}
            - --{{ $k }}={{ $v }}
            {{- end }}
          env:
            {{- range .Values.${c}.env }}
            - name: {{ .name }}
              value: {{ .value | quote }}
            {{- end }}
          ports:
            {{- range $name, $port := .Values.${c}.ports }}
            - name: {{ $name }}
              containerPort: {{ $port }}
            {{- end }}
          resources:
            {{- toYaml .Values.${c}.resources | nindent 12 }}
{{- end }}
`;
}

function service(c: string): string {
  return `{{- if .Values.${c}.enabled }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "app.fullname" . }}-${c}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
    app.kubernetes.io/component: ${c}
spec:
  type: ClusterIP
  ports:
    {{- range $name, $port := .Values.${c}.ports }}
    - name: {{ $name }}
      port: {{ $port }}
      targetPort: {{ $name }}
    {{- end }}
  selector:
    {{- include "app.selectorLabels" . | nindent 4 }}
    app.kubernetes.io/component: ${c}
{{- end }}
`;
}

function configMap(c: string): string {
  return `{{- if .Values.${c}.enabled }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "app.fullname" . }}-${c}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
data:
  {{- range $k, $v := .Values.${c}.config }}
  {{ $k }}: {{ $v | quote }}
  {{- end }}
{{- end }}
`;
}

function serviceAccount(c: string): string {
  return `{{- if .Values.${c}.enabled }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "app.fullname" . }}-${c}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
automountServiceAccountToken: true
{{- end }}
`;
}

function componentValues(c: string, i: number): string {
  const lines = [
    `${c}:`,
    '  enabled: true',
    `  replicaCount: ${i + 1}`,
    '  annotations:',
    `    example.com/owner: team-${c}`,
    '  image:',
    '    registry: registry.k8s.io',
    `    repository: ingress-nginx/${c}`,
    '    tag: v1.8.1',
    '  extraArgs:',
  ];
  for (let k = 0; k < 6; k++) lines.push(`    flag-${k}: value-${k}`);
  lines.push('  env:');
  for (let k = 0; k < 6; k++) lines.push(`    - name: ENV_${k}`, `      value: "${k}"`);
  lines.push('  ports:', '    http: 80', '    https: 443');
  lines.push(
    '  resources:',
    '    requests:',
    '      cpu: 100m',
    '      memory: 90Mi',
    '    limits:',
    '      memory: 1Gi',
  );
  lines.push('  config:');
  for (let k = 0; k < 20; k++) lines.push(`    key-${k}: "setting ${k} of ${c}"`);
  return lines.join('\n') + '\n';
}

export function benchChart(): Uint8Array {
  const files: Record<string, string> = {
    'Chart.yaml': 'apiVersion: v2\nname: ingress-nginx\nversion: 4.7.1\nappVersion: "1.8.1"\n',
    'values.yaml': 'nameOverride: ""\nfullnameOverride: ""\n' + COMPONENTS.map(componentValues).join(''),
    'templates/_helpers.tpl': helpers,
  };
  for (const c of COMPONENTS) {
    files[`templates/${c}-deployment.yaml`] = deployment(c);
    files[`templates/${c}-service.yaml`] = service(c);
    files[`templates/${c}-configmap.yaml`] = configMap(c);
    files[`templates/${c}-serviceaccount.yaml`] = serviceAccount(c);
  }
  const entries = Object.entries(files).map(([p, text]) => ({
    path: `ingress-nginx/${p}`,
    data: new TextEncoder().encode(text),
  }));
  return gzipDeterministic(writeTar(entries));
}

/** The same objects from Jsonnet: values as an object, helpers as functions, ranges as comprehensions. */
export function benchJsonnet(release: string, namespace: string): string {
  const values = COMPONENTS.map(
    (c, i) => `    '${c}': {
      enabled: true, replicaCount: ${i + 1},
      annotations: { 'example.com/owner': 'team-${c}' },
      image: { registry: 'registry.k8s.io', repository: 'ingress-nginx/${c}', tag: 'v1.8.1' },
      extraArgs: { ['flag-' + k]: 'value-' + k for k in std.range(0, 5) },
      env: [{ name: 'ENV_' + k, value: std.toString(k) } for k in std.range(0, 5)],
      ports: { http: 80, https: 443 },
      resources: { requests: { cpu: '100m', memory: '90Mi' }, limits: { memory: '1Gi' } },
      config: { ['key-' + k]: 'setting %d of ${c}' % k for k in std.range(0, 19) },
    },`,
  ).join('\n');
  return `
local chart = { name: 'ingress-nginx', version: '4.7.1', appVersion: '1.8.1' };
local release = { name: '${release}', namespace: '${namespace}' };
local values = {
    nameOverride: '', fullnameOverride: '',
${values}
};
local trunc63(s) = std.rstripChars(if std.length(s) > 63 then std.substr(s, 0, 63) else s, '-');
local name = trunc63(if values.nameOverride != '' then values.nameOverride else chart.name);
local fullname = if values.fullnameOverride != '' then trunc63(values.fullnameOverride)
                 else trunc63('%s-%s' % [release.name, name]);
local selectorLabels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': release.name };
local labels = {
  'helm.sh/chart': std.strReplace('%s-%s' % [chart.name, chart.version], '+', '_'),
  'app.kubernetes.io/version': chart.appVersion,
  'app.kubernetes.io/managed-by': 'Helm',
} + selectorLabels;
local image(i) = '%s/%s:%s' % [i.registry, i.repository, i.tag];
local meta(c, extra={}) = { name: fullname + '-' + c, namespace: release.namespace, labels: labels + extra };
local component(c) = {
  local v = values[c],
  local comp = { 'app.kubernetes.io/component': c },
  ['ingress-nginx/templates/' + c + '-deployment.yaml']: [{
    apiVersion: 'apps/v1', kind: 'Deployment',
    metadata: meta(c, comp) + (if std.length(v.annotations) > 0 then { annotations: v.annotations } else {}),
    spec: {
      replicas: v.replicaCount,
      selector: { matchLabels: selectorLabels + comp },
      template: {
        metadata: { labels: selectorLabels + comp },
        spec: {
          serviceAccountName: fullname + '-' + c,
          containers: [{
            name: c, image: image(v.image),
            args: ['--%s=%s' % [k, v.extraArgs[k]] for k in std.objectFields(v.extraArgs)],
            env: [{ name: e.name, value: e.value } for e in v.env],
            ports: [{ name: p, containerPort: v.ports[p] } for p in std.objectFields(v.ports)],
            resources: v.resources,
          }],
        },
      },
    },
  }],
  ['ingress-nginx/templates/' + c + '-service.yaml']: [{
    apiVersion: 'v1', kind: 'Service', metadata: meta(c, comp),
    spec: {
      type: 'ClusterIP',
      ports: [{ name: p, port: v.ports[p], targetPort: p } for p in std.objectFields(v.ports)],
      selector: selectorLabels + comp,
    },
  }],
  ['ingress-nginx/templates/' + c + '-configmap.yaml']: [{
    apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(c), data: v.config,
  }],
  ['ingress-nginx/templates/' + c + '-serviceaccount.yaml']: [{
    apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(c), automountServiceAccountToken: true,
  }],
};
std.foldl(function(acc, c) acc + (if values[c].enabled then component(c) else {}), ${JSON.stringify(COMPONENTS)}, {})
`;
}
