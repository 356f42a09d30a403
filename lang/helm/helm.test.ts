// Chart loading, values coalescing and rendering as `helm template` does, plus archive safety (hazards 6-8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { GoFloat } from '../gotemplate/index.js';
import {
  ChartArchiveError,
  ChartError,
  coalesceChartValues,
  extractChartArchive,
  loadChart,
  loadChartArchive,
  parseHelmChart,
  renderChart,
  renderTemplates,
} from './index.js';

const enc = new TextEncoder();

function tree(files: Record<string, string>): Map<string, Uint8Array> {
  return new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)]));
}

const chartFiles = {
  'app/Chart.yaml':
    'apiVersion: v2\nname: app\nversion: 1.2.3\nappVersion: "9.9"\ndependencies:\n- name: sub\n  condition: sub.enabled\n- name: extra\n  condition: extra.enabled\n',
  'app/values.yaml':
    'replicas: 2\nimage:\n  repo: nginx\n  tag: "1.25"\nremoveMe: x\nglobal:\n  region: eu\nsub:\n  greeting: hi\n',
  'app/templates/_helpers.tpl':
    '{{- define "app.name" -}}{{ .Chart.Name }}-{{ .Release.Name }}{{- end -}}\n{{- define "shared" -}}parent{{- end -}}',
  'app/templates/deploy.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "app.name" . }}\n  namespace: {{ .Release.Namespace }}\n  labels:\n    chart: {{ .Chart.Name }}-{{ .Chart.Version }}\n    app-version: {{ .Chart.AppVersion | quote }}\nspec:\n  replicas: {{ .Values.replicas }}\n  template:\n    spec:\n      containers:\n      - image: {{ .Values.image.repo }}:{{ .Values.image.tag }}\n{{- if .Values.removeMe }}\n        removed: "no"\n{{- end }}\n',
  'app/templates/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  file: {{ .Files.Get "files/a.txt" | quote }}\n  tpl: {{ .Template.Name }}\n  has: {{ .Capabilities.APIVersions.Has "apps/v1" | quote }}\n  kube: {{ .Capabilities.KubeVersion.Version }}\n---\n# empty document\n---\n',
  'app/templates/NOTES.txt': 'notes {{ .Release.Name }}',
  'app/files/a.txt': 'hello file',
  'app/templates/files.yaml':
    '{{- range $path, $_ := .Files.Glob "files/*" }}\n{{ base $path }}: {{ $.Files.Get $path }}\n{{- end }}\ncount: {{ len (.Files.Glob "**") }}\n',
  'app/charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
  'app/charts/sub/values.yaml': 'greeting: default\nenabled: true\nglobal:\n  region: us\n  own: yes\n',
  'app/charts/sub/templates/s.yaml':
    'kind: Sub\ngreeting: {{ .Values.greeting }}\nregion: {{ .Values.global.region }}\nown: {{ .Values.global.own }}\nshared: {{ include "shared" . }}\nchart: {{ .Chart.Name }}\n',
  'app/charts/sub/templates/_h.tpl': '{{- define "shared" -}}child{{- end -}}',
  'app/charts/extra/Chart.yaml': 'apiVersion: v2\nname: extra\nversion: 0.1.0\n',
  'app/charts/extra/values.yaml': 'enabled: false\n',
  'app/charts/extra/templates/o.yaml': 'kind: Extra\n',
};

test('Files.Glob matches in linear time and by characters', () => {
  const long = `files/${'a'.repeat(3000)}`;
  const chart = loadChart(
    tree({
      'g/Chart.yaml': 'apiVersion: v2\nname: g\nversion: 1.0.0\n',
      [`g/${long}`]: 'x',
      'g/files/😀.txt': 'y',
      'g/templates/cm.yaml': `slow: {{ len (.Files.Glob "files/${'*a'.repeat(20)}*b") }}\nemoji: {{ len (.Files.Glob "files/?.txt") }}\n`,
    }),
  );
  const out = renderChart(chart, { releaseName: 'r', namespace: 'n', values: {} });
  assert.deepEqual(out['g/templates/cm.yaml'], [{ slow: 0, emoji: 1 }]);
});

test('renders like helm template', () => {
  const chart = loadChart(tree(chartFiles));
  const out = renderChart(chart, {
    releaseName: 'rel',
    namespace: 'ns',
    values: { replicas: new GoFloat(3), removeMe: null },
  });
  assert.deepEqual(Object.keys(out).sort(), [
    'app/charts/sub/templates/s.yaml',
    'app/templates/cm.yaml',
    'app/templates/deploy.yaml',
    'app/templates/files.yaml',
  ]);
  assert.deepEqual(out['app/templates/files.yaml'], [{ 'a.txt': 'hello file', count: 1 }]);
  assert.deepEqual(out['app/templates/deploy.yaml'], [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app-rel', namespace: 'ns', labels: { chart: 'app-1.2.3', 'app-version': '9.9' } },
      spec: { replicas: 3, template: { spec: { containers: [{ image: 'nginx:1.25' }] } } },
    },
  ]);
  assert.deepEqual(out['app/templates/cm.yaml'], [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm' },
      data: { file: 'hello file', tpl: 'app/templates/cm.yaml', has: 'true', kube: 'v1.20.0' },
    },
  ]);
  assert.deepEqual(out['app/charts/sub/templates/s.yaml'], [
    { kind: 'Sub', greeting: 'hi', region: 'eu', own: true, shared: 'parent', chart: 'sub' },
  ]);
});

test('condition enables a disabled subchart; user values reach it', () => {
  const chart = loadChart(tree(chartFiles));
  const out = renderChart(chart, { releaseName: 'r', namespace: 'n', values: { extra: { enabled: true } } });
  assert.deepEqual(out['app/charts/extra/templates/o.yaml'], [{ kind: 'Extra' }]);
});

test('values coalescing: user wins, maps merge, null deletes, globals flow down', () => {
  const chart = loadChart(tree(chartFiles));
  const v = coalesceChartValues(chart, { image: { tag: 'x' }, removeMe: null, global: { extra: 1 } });
  assert.deepEqual(JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof GoFloat ? x.value : x))), {
    replicas: 2,
    image: { repo: 'nginx', tag: 'x' },
    global: { region: 'eu', extra: 1 },
    sub: { greeting: 'hi', enabled: true, global: { region: 'eu', own: true, extra: 1 } },
    extra: { enabled: false, global: { region: 'eu', extra: 1 } },
  });
});

test('numbers from values.yaml are float64 as in Helm', () => {
  const files = tree({
    'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
    'c/values.yaml': 'num: 1000000\nf: 1.5\n',
    'c/templates/t.yaml': 'a: {{ .Values.num }}\nb: "{{ printf "%d" .Values.num }}"\nc: {{ typeOf .Values.f }}\n',
  });
  const out = renderTemplates(loadChart(files), { releaseName: 'r', namespace: 'n' });
  assert.equal(out.get('c/templates/t.yaml'), 'a: 1e+06\nb: "%!d(float64=1e+06)"\nc: float64\n');
});

test('errors read as Helm prints them', () => {
  const bad = (t: string) =>
    tree({ 'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n', 'c/templates/t.yaml': t });
  assert.throws(
    () => renderTemplates(loadChart(bad('{{ .Values.x ')), { releaseName: 'r', namespace: 'n' }),
    (e: unknown) => e instanceof ChartError && e.message === 'parse error at (c/templates/t.yaml:1): unclosed action',
  );
  assert.throws(
    () =>
      renderTemplates(loadChart(bad('a\n{{ required "x is required" .Values.x }}')), {
        releaseName: 'r',
        namespace: 'n',
      }),
    { message: 'execution error at (c/templates/t.yaml:2:3): x is required' },
  );
  assert.throws(() => renderTemplates(loadChart(bad('{{ .Values.a.b }}')), { releaseName: 'r', namespace: 'n' }), {
    message:
      'template: c/templates/t.yaml:1:10: executing "c/templates/t.yaml" at <.Values.a.b>: nil pointer evaluating interface {}.b',
  });
  assert.throws(() => loadChart(tree({ 'c/Chart.yaml': 'name: c\nversion: 1.0.0\n' })), {
    message: 'validation: chart.metadata.apiVersion is required',
  });
  assert.throws(() => loadChart(tree({ 'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: one\n' })), {
    message: 'validation: chart.metadata.version "one" is invalid',
  });
});

// ---- archives ----

function tarEntry(name: string, body: Uint8Array, type = '0', linkTarget = ''): Uint8Array {
  const h = new Uint8Array(512);
  const put = (s: string, off: number, len: number) => h.set(enc.encode(s).subarray(0, len), off);
  put(name, 0, 100);
  put('0000644\0', 100, 8);
  put('0000000\0', 108, 8);
  put('0000000\0', 116, 8);
  put(body.length.toString(8).padStart(11, '0') + '\0', 124, 12);
  put('00000000000\0', 136, 12);
  put('        ', 148, 8);
  put(type, 156, 1);
  put(linkTarget, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  const padded = new Uint8Array(Math.ceil(body.length / 512) * 512);
  padded.set(body);
  const out = new Uint8Array(512 + padded.length);
  out.set(h);
  out.set(padded, 512);
  return out;
}

function tgz(entries: Uint8Array[]): Uint8Array {
  const total = entries.reduce((n, e) => n + e.length, 0) + 1024;
  const buf = new Uint8Array(total);
  let off = 0;
  for (const e of entries) {
    buf.set(e, off);
    off += e.length;
  }
  return gzipSync(buf);
}

const okChart = enc.encode('apiVersion: v2\nname: c\nversion: 1.0.0\n');

test('loads a chart archive', () => {
  const c = loadChartArchive(
    tgz([tarEntry('c/Chart.yaml', okChart), tarEntry('c/templates/t.yaml', enc.encode('x: {{ .Release.Name }}'))]),
  );
  assert.deepEqual(renderChart(c, { releaseName: 'r', namespace: 'n' }), { 'c/templates/t.yaml': [{ x: 'r' }] });
});

const illegal: [string, Uint8Array[], RegExp][] = [
  ['parent reference', [tarEntry('c/Chart.yaml', okChart), tarEntry('c/../../x', enc.encode('x'))], /parent directory/],
  ['absolute path', [tarEntry('/c/Chart.yaml', okChart)], /absolute paths/],
  [
    'backslash',
    [tarEntry('c/Chart.yaml', okChart), tarEntry('c\\..\\..\\foo', enc.encode('x'))],
    /outside the base directory/,
  ],
  ['drive letter', [tarEntry('c/Chart.yaml', okChart), tarEntry('C:../x', enc.encode('x'))], /illegally named/],
  ['symlink', [tarEntry('c/Chart.yaml', okChart), tarEntry('c/link', new Uint8Array(), '2', '/etc/passwd')], /link/],
  ['hardlink', [tarEntry('c/Chart.yaml', okChart), tarEntry('c/hl', new Uint8Array(), '1', '../x')], /link/],
  ['missing top dir', [tarEntry('Chart.yaml', okChart)], /one top-level directory/],
  ['Chart.yaml not in base dir', [tarEntry('c/sub/Chart.yaml', okChart)], /Chart.yaml file is missing/],
  ['two top dirs', [tarEntry('c/Chart.yaml', okChart), tarEntry('d/x', enc.encode('x'))], /one top-level directory/],
];

for (const [name, entries, want] of illegal) {
  test(`archive refused: ${name}`, () => {
    assert.throws(
      () => extractChartArchive(tgz(entries)),
      (e: unknown) => e instanceof ChartArchiveError && want.test(e.message),
    );
  });
}

test('archive refused: header size larger than data', () => {
  const e = tarEntry('c/Chart.yaml', new Uint8Array(2000));
  const truncated = gzipSync(e.subarray(0, 600));
  assert.throws(() => extractChartArchive(truncated), /shorter than its header says/);
});

test('archive refused: bad checksum, not gzip', () => {
  const e = tarEntry('c/Chart.yaml', okChart);
  e[0] = 'd'.charCodeAt(0);
  assert.throws(() => extractChartArchive(gzipSync(e)), /checksum mismatch/);
  assert.throws(() => extractChartArchive(enc.encode('not gzip')), /not valid gzip/);
});

test('archive refused: a file over the 5 MiB cap (gzip bomb style)', () => {
  const big = new Uint8Array(5 * 1024 * 1024 + 1);
  assert.throws(
    () => extractChartArchive(tgz([tarEntry('c/Chart.yaml', okChart), tarEntry('c/big', big)])),
    /larger than the maximum file size/,
  );
});

test('parseHelmChart: JSON values become float64 like Go json.Unmarshal', () => {
  const files = [
    tarEntry('c/Chart.yaml', okChart),
    tarEntry('c/values.yaml', enc.encode('replicas: 1\n')),
    tarEntry(
      'c/templates/t.yaml',
      enc.encode('r: {{ .Values.replicas }}\nt: {{ typeOf .Values.replicas }}\nbig: {{ .Values.big }}\n'),
    ),
  ];
  const out = parseHelmChart(tgz(files), 'r', 'n', { replicas: 5, big: 2000000 });
  // kubecfg also gives every object without a namespace the release namespace.
  assert.deepEqual(out, { 'c/templates/t.yaml': [{ r: 5, t: 'float64', big: 2000000, metadata: { namespace: 'n' } }] });
});

test('library subcharts contribute only partials', () => {
  const files = tree({
    'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
    'c/templates/t.yaml': 'v: {{ include "lib.x" . }}\n',
    'c/charts/lib/Chart.yaml': 'apiVersion: v2\nname: lib\nversion: 1.0.0\ntype: library\n',
    'c/charts/lib/templates/_x.tpl': '{{- define "lib.x" -}}from-lib{{- end -}}',
    'c/charts/lib/templates/cm.yaml': 'kind: ShouldNotRender\n',
  });
  assert.deepEqual(renderChart(loadChart(files), { releaseName: 'r', namespace: 'n' }), {
    'c/templates/t.yaml': [{ v: 'from-lib' }],
  });
});

test('typical chart helpers (fullname, labels, semverCompare on KubeVersion)', () => {
  const helpers = `{{- define "x.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- define "x.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}`;
  const deploy = `{{- if semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion }}
apiVersion: networking.k8s.io/v1
{{- else }}
apiVersion: networking.k8s.io/v1beta1
{{- end }}
kind: Ingress
metadata:
  name: {{ include "x.fullname" . }}
  labels:
    {{- include "x.labels" . | nindent 4 }}
  annotations:
    kube: {{ .Capabilities.KubeVersion | quote }}
spec:
  {{- with .Values.rules }}
  rules: {{ toYaml . | nindent 4 }}
  {{- end }}
`;
  const files = tree({
    'x/Chart.yaml': 'apiVersion: v2\nname: x\nversion: 1.0.0+build\n',
    'x/values.yaml': 'nameOverride: ""\ncommonLabels: {}\nrules: []\n',
    'x/templates/_helpers.tpl': helpers,
    'x/templates/ing.yaml': deploy,
  });
  const out = renderChart(loadChart(files), {
    releaseName: 'rel',
    namespace: 'n',
    values: { commonLabels: { team: 'a' }, rules: [{ host: 'h' }] },
    kubeVersion: 'v1.25.3',
  });
  assert.deepEqual(out['x/templates/ing.yaml'], [
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name: 'rel-x',
        labels: { 'helm.sh/chart': 'x-1.0.0_build', 'app.kubernetes.io/managed-by': 'Helm', team: 'a' },
        annotations: { kube: 'v1.25.3' },
      },
      spec: { rules: [{ host: 'h' }] },
    },
  ]);
});

// kyverno's templates/cleanup-controller/secret.yaml names genCA/genSignedCert in a branch
// its default values do not take; Helm parses it (the functions exist) and renders nothing there.
const kyvernoShape = {
  'k/Chart.yaml': 'apiVersion: v2\nname: k\nversion: 1.0.0\n',
  'k/values.yaml': 'cleanupController:\n  tls:\n    generate: false\n',
  'k/templates/secret.yaml': `{{- if .Values.cleanupController.tls.generate }}
{{- $ca := genCA "k-ca" 1024 }}
{{- $cert := genSignedCert "k-svc" nil (list "k-svc.ns.svc") 1024 $ca }}
apiVersion: v1
kind: Secret
metadata:
  name: k-tls
type: kubernetes.io/tls
data:
  tls.crt: {{ $cert.Cert | b64enc }}
  tls.key: {{ $cert.Key | b64enc }}
  ca.crt: {{ $ca.Cert | b64enc }}
{{- end }}
`,
};

test('a chart naming genCA in an untaken branch renders; taking it gives a TLS secret', () => {
  const chart = loadChart(tree(kyvernoShape));
  assert.equal(renderTemplates(chart, { releaseName: 'r', namespace: 'n' }).get('k/templates/secret.yaml'), '\n');
  const values = { cleanupController: { tls: { generate: true } } };
  const out = renderTemplates(chart, { releaseName: 'r', namespace: 'n', values, seed: 9 });
  const secret = out.get('k/templates/secret.yaml')!;
  const crt = Buffer.from(/tls\.crt: (\S+)/.exec(secret)![1]!, 'base64').toString();
  assert.match(crt, /^-----BEGIN CERTIFICATE-----\n/);
  assert.match(Buffer.from(/tls\.key: (\S+)/.exec(secret)![1]!, 'base64').toString(), /^-----BEGIN RSA PRIVATE KEY/);
  assert.equal(
    renderTemplates(chart, { releaseName: 'r', namespace: 'n', values, seed: 9 }).get('k/templates/secret.yaml'),
    secret,
  );
});

test('Capabilities as kubecfg builds them with Helm 3.18.5: KubeVersion v1.20.0, HelmVersion v3.18', () => {
  const chart = loadChart(
    tree({
      'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
      'c/templates/cm.yaml': [
        'kube: {{ .Capabilities.KubeVersion }}',
        'major: {{ .Capabilities.KubeVersion.Major | quote }}',
        'minor: {{ .Capabilities.KubeVersion.Minor | quote }}',
        'helm: {{ .Capabilities.HelmVersion.Version }}',
        'helmStruct: {{ printf "%v" .Capabilities.HelmVersion | quote }}',
        'helmYaml: {{ toYaml .Capabilities.HelmVersion | quote }}',
        'modern: {{ semverCompare ">=3.18.0" .Capabilities.HelmVersion.Version }}',
        '',
      ].join('\n'),
    }),
  );
  const out = renderChart(chart, { releaseName: 'r', namespace: 'n', values: {} });
  assert.deepEqual(out['c/templates/cm.yaml'], [
    {
      kube: 'v1.20.0',
      major: '1',
      minor: '20',
      helm: 'v3.18',
      helmStruct: '{v3.18   }',
      helmYaml: 'version: v3.18',
      modern: true,
    },
  ]);
});

// Helm 3.18.5's DefaultVersionSet (client-go v0.33.3's scheme): alpha and beta group versions are
// there, kinds are not, and apiextensions comes last.
test('default Capabilities.APIVersions is Helm 3.18.5 DefaultVersionSet', () => {
  const chart = loadChart(
    tree({
      'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 0.1.0\n',
      'c/templates/t.yaml':
        'psp: {{ .Capabilities.APIVersions.Has "policy/v1beta1" }}\n' +
        'hpa: {{ .Capabilities.APIVersions.Has "autoscaling/v2beta2" }}\n' +
        'kind: {{ .Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget" }}\n' +
        'count: {{ len .Capabilities.APIVersions }}\n' +
        'first: {{ first .Capabilities.APIVersions }}\n' +
        'last: {{ last .Capabilities.APIVersions }}\n',
    }),
  );
  assert.deepEqual(renderChart(chart, { releaseName: 'r', namespace: 'n', values: {} })['c/templates/t.yaml'], [
    { psp: true, hpa: true, kind: false, count: 57, first: 'v1', last: 'apiextensions.k8s.io/v1' },
  ]);
});
