/**
 * Every rule, example and message of the KuboCD template-functions specification (written out here),
 * table-driven where possible: the function list, the data rules (copies,
 * determinism, colliding keys), the limits, the error wording and locations,
 * imageRedirect, resolveDNS, the quotes of Release.spec.parameters and `${...}`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  KubocdError,
  KubocdTemplate,
  renderRelease,
  dumpPackage,
  MAX_TEXT_BYTES,
  type ReleaseRenderInput,
} from './index.js';

const W = 'message withheld, as it can quote the data';

/** Renders one template (with an optional header) and returns its text or its error message. */
function run(text: string, data: unknown, header = '', packageTemplate = true, allowDns = false): string {
  try {
    return KubocdTemplate.compile(text, header, {
      packageTemplate,
      ...(allowDns
        ? { dns: { allowed: true, resolve: (h: string) => (h === 'db.local' ? '10.0.0.7' : undefined) } }
        : {}),
    }).render(data);
  } catch (e) {
    if (e instanceof KubocdError) return `ERR ${e.message}`;
    throw e;
  }
}

const RELEASE = `apiVersion: kubocd.kubotal.io/v1alpha1
kind: Release
metadata:
  name: demo
  namespace: apps
spec:
  package:
    repository: quay.io/kubocd/packages/demo
    tag: 1.0.0
`;

function release(parameters?: unknown): string {
  return parameters === undefined ? RELEASE : RELEASE + `  parameters: ${JSON.stringify(parameters)}\n`;
}

/** A one-module package manifest (JSON is YAML) with the given module fields and package fields. */
function pkg(module: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: 'v1alpha1',
    name: 'demo',
    tag: '1.0.0',
    schema: { parameters: { type: 'object', additionalProperties: true, properties: {} } },
    modules: [{ name: 'main', source: { oci: { repository: 'r', tag: '1' } }, ...module }],
    ...extra,
  });
}

function renderError(input: Partial<ReleaseRenderInput> & { package: string }): string | undefined {
  return renderRelease({ release: release(), ...input }).error?.message;
}

test('the fixed function list: listed functions parse, any other is `function "X" not defined`', () => {
  const allowed = [
    'indent',
    'lower',
    'nindent',
    'nospace',
    'quote',
    'regexReplaceAll',
    'replace',
    'split',
    'splitList',
    'title',
    'trim',
    'trimAll',
    'trimPrefix',
    'trimSuffix',
    'trunc',
    'upper',
    'append',
    'compact',
    'concat',
    'first',
    'has',
    'join',
    'last',
    'list',
    'prepend',
    'sortAlpha',
    'uniq',
    'dict',
    'dig',
    'get',
    'hasKey',
    'omit',
    'set',
    'coalesce',
    'default',
    'empty',
    'kindIs',
    'ternary',
    'div',
    'divf',
    'float64',
    'int',
    'min',
    'mulf',
    'sha256sum',
    'fail',
    'fromJson',
    'fromYaml',
    'imageRedirect',
    'keys',
    'required',
    'toJson',
    'toYaml',
    'until',
    'urlParse',
    'resolveDNS',
    'and',
    'call',
    'eq',
    'ge',
    'gt',
    'html',
    'index',
    'js',
    'le',
    'len',
    'lt',
    'ne',
    'not',
    'or',
    'print',
    'printf',
    'println',
    'slice',
    'urlquery',
  ];
  assert.equal(allowed.length, 45 + 11 + 19);
  for (const f of allowed)
    assert.doesNotThrow(
      () => KubocdTemplate.compile(`{{ if false }}{{ ${f} }}{{ end }}`, '', { packageTemplate: true }),
      f,
    );
  const removed = [
    'now',
    'date',
    'randAlphaNum',
    'uuidv4',
    'genCA',
    'b64enc',
    'contains',
    'getHostByName',
    'readFile',
    'toToml',
    'fromYamlArray',
    'fromJsonArray',
    'include',
    'tpl',
    'lookup',
    'env',
    'expandenv',
    'hello',
    'repeat',
    'untilStep',
    'mustToJson',
    'sortAlpha2',
    'typeOf',
    'substr',
    'add',
    'max',
    'pluck',
    'deepCopy',
    'semver',
    'urlJoin',
  ];
  for (const f of removed) assert.equal(run(`a\n{{ ${f} }}`, {}), `ERR template: :2: function "${f}" not defined`, f);
});

test('resolveDNS: package templates only, disabled unless allowed', () => {
  assert.equal(
    run('{{ resolveDNS "db.local" }}', {}, '', false),
    'ERR template: :1: function "resolveDNS" not defined',
  );
  assert.equal(
    run('{{ resolveDNS "db.local" }}', {}),
    'ERR line 1, column 4: error calling resolveDNS: resolveDNS is disabled by platform policy',
  );
  assert.equal(run('{{ resolveDNS "db.local" }}', {}, '', true, true), '10.0.0.7');
  const err = renderError({
    package: pkg({ values: 'ip: {{ resolveDNS "db.local" }}' }),
  });
  assert.equal(
    err,
    "module 'main': could not render 'values' template: line 1, column 8: error calling resolveDNS: resolveDNS is disabled by platform policy",
  );
  assert.equal(
    renderRelease({ release: release({ x: '{{ resolveDNS "a" }}' }), package: pkg({}) }).error?.message,
    'could not create template from parameters: template: :1: function "resolveDNS" not defined',
  );
});

test('each execution works on its own copy: set and sortAlpha change only it', () => {
  const data = { Parameters: { m: { a: 1 }, l: ['c', 'a', 'b'] } };
  const t = KubocdTemplate.compile(
    '{{ $_ := set .Parameters.m "b" 2 }}{{ sortAlpha .Parameters.l }}{{ toJson .Parameters.m }}',
    '',
    {
      packageTemplate: true,
    },
  );
  assert.equal(t.render(data), '[a b c]{"a":1,"b":2}');
  assert.equal(t.render(data), '[a b c]{"a":1,"b":2}');
  assert.deepEqual(data, { Parameters: { m: { a: 1 }, l: ['c', 'a', 'b'] } });
  const other = KubocdTemplate.compile('{{ toJson .Parameters.m }}', '', { packageTemplate: true });
  assert.equal(other.render(data), '{"a":1}');
});

test('the same data renders the same text', () => {
  const data = { Parameters: { m: { z: 1, a: 2, é: 3, B: 4 }, l: [3, 1, 2] } };
  const t = KubocdTemplate.compile(
    '{{ range $k, $v := .Parameters.m }}{{ $k }}={{ $v }};{{ end }}{{ keys .Parameters.m }}{{ toYaml .Parameters }}{{ .Parameters.m }}',
    '',
    { packageTemplate: true },
  );
  const first = t.render(data);
  for (let i = 0; i < 5; i++) assert.equal(t.render(structuredClone(data)), first);
  assert.match(first, /^B=4;a=2;z=1;é=3;\[B a z é\]/);
});

test('keys: sorted, a key of several dicts once per dict; toJson makes a YAML list', () => {
  const data = { Parameters: { labels: { tier: 'x', app: 'y', team: 'z' } } };
  assert.equal(run('labelNames: {{ keys .Parameters.labels | toJson }}', data), 'labelNames: ["app","team","tier"]');
  assert.equal(run('labelNames: {{ keys .Parameters.labels }}', data), 'labelNames: [app team tier]');
  assert.equal(run('{{ keys (dict "b" 1 "a" 2) (dict "a" 3) | toJson }}', {}), '["a","a","b"]');
});

test('fail and required: messages kept, located from the field', () => {
  const failValues = `{{- if and .Parameters.externalDatabase .Parameters.embeddedDatabase }}
{{- fail "set 'externalDatabase' or 'embeddedDatabase', not both" }}
{{- end }}`;
  assert.equal(
    run(failValues, { Parameters: { externalDatabase: true, embeddedDatabase: true } }),
    "ERR line 2, column 5: error calling fail: set 'externalDatabase' or 'embeddedDatabase', not both",
  );
  assert.equal(run(failValues, { Parameters: { externalDatabase: true } }), '');
  const reqValues = `auth:
  adminPassword: {{ required "parameter 'adminPassword' is required" .Parameters.adminPassword | quote }}`;
  for (const p of [{}, { adminPassword: '' }, { adminPassword: null }])
    assert.equal(
      run(reqValues, { Parameters: p }),
      "ERR line 2, column 21: error calling required: parameter 'adminPassword' is required",
    );
  assert.equal(run(reqValues, { Parameters: { adminPassword: 's3cr3t' } }), 'auth:\n  adminPassword: "s3cr3t"');
});

test('until: Sprig behaviour, at most 10000 items', () => {
  assert.equal(run('{{ until 3 }}', {}), '[0 1 2]');
  assert.equal(run('{{ until -3 }}', {}), '[0 -1 -2]');
  assert.equal(run('{{ len (until 10000) }} {{ len (until -10000) }}', {}), '10000 10000');
  for (const n of [10001, -10001, 1000000000])
    assert.equal(
      run(`{{ until ${n} }}`, {}),
      'ERR line 1, column 4: error calling until: until: the count is beyond the limit of 10000',
    );
});

test('urlParse: parts as Sprig, an invalid URL fails without the URL', () => {
  assert.equal(run('{{ (urlParse "https://u@h.example:8443/p?q=1#f").hostname }}', {}), 'h.example');
  assert.equal(
    run('{{ urlParse .Parameters.u }}', { Parameters: { u: 'http://x/%zzCANARY' } }),
    'ERR line 1, column 4: error calling urlParse: urlParse: invalid URL',
  );
  // What Go's net/url.Parse rejects (issue 20 item 17).
  for (const u of ['http://[fd00::zz-x', ':no-scheme', 'http://a host.example/', 'http://host:port/'])
    assert.equal(
      run('{{ urlParse .Parameters.u }}', { Parameters: { u } }),
      'ERR line 1, column 4: error calling urlParse: urlParse: invalid URL',
      u,
    );
});

test('fromJson, fromYaml, toJson, toYaml', () => {
  assert.equal(run('{{ (fromJson "{\\"a\\":[1,2]}").a }}', {}), '[1 2]');
  assert.match(run('{{ (fromJson "[1]").Error }}', {}), /cannot unmarshal array/);
  assert.equal(run('{{ (fromYaml "a: 1\\nb: [x]").b }}', {}), '[x]');
  assert.equal(
    run('{{ (fromYaml "? null\\n: 1").Error }}', {}),
    'fromYaml: the document has a map key that cannot be converted to a string, such as null',
  );
  assert.equal(
    run('{{ fromYaml "1: a\\n\\"1\\": b" }}', {}),
    'ERR line 1, column 4: error calling fromYaml: fromYaml: the document has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"',
  );
  assert.equal(run('{{ toYaml (dict "b" (list 1 "x") "a" true) }}', {}), 'a: true\nb:\n- 1\n- x');
  assert.equal(run('{{ toJson (dict "b" "<" "a" 1.5) }}', {}), '{"a":1.5,"b":"\\u003c"}');
});

test('printf rejects %p; slice takes integer indexes only', () => {
  for (const f of ['%p', '%#p', '%[1]p', 'a %5p'])
    assert.equal(
      run(`{{ printf "${f}" .x }}`, { x: [1] }),
      'ERR line 1, column 4: error calling printf: printf: the %p verb is not allowed',
    );
  assert.equal(run('{{ printf "%s-%05d-%%" "a" 7 }}', {}), 'a-00007-%');
  const goData = { Parameters: { zones: ['a', 'b', 'c'], replicas: 2.5 } };
  assert.equal(
    run('zones: {{ slice .Parameters.zones 0 (int .Parameters.replicas) | toJson }}', goData),
    'zones: ["a","b"]',
  );
  assert.equal(
    run('zones: {{ slice .Parameters.zones 0 .Parameters.replicas | toJson }}', goData),
    'ERR line 1, column 11: error calling slice: slice: the indexes must be integers, convert them with int',
  );
});

test('limits: every function refusal of the spec, and the rendered text', () => {
  const big = 'x'.repeat(MAX_TEXT_BYTES / 2);
  const d = { big, lines: 'a\n'.repeat(1000), list: [big, big, 'y'] };
  const cases: [string, string][] = [
    ['{{ indent 5000 .lines }}', 'error calling indent: indent: the result is larger than 4194304 bytes'],
    ['{{ nindent 5000 .lines }}', 'error calling nindent: nindent: the result is larger than 4194304 bytes'],
    ['{{ indent -1 "a" }}', 'error calling indent: indent: the indentation must not be negative'],
    ['{{ nindent -1 "a" }}', 'error calling nindent: nindent: the indentation must not be negative'],
    ['{{ replace "x" "xyz" .big }}', 'error calling replace: replace: the result is larger than 4194304 bytes'],
    ['{{ join "," .list }}', 'error calling join: join: the result can exceed 4194304 bytes'],
    ['{{ printf "%s%s%s" .big .big .big }}', 'error calling printf: printf: the result can exceed 4194304 bytes'],
    ['{{ printf "%q" .big }}', 'error calling printf: printf: the result can exceed 4194304 bytes'],
    ['{{ printf "%v" .list }}', 'error calling printf: printf: the result can exceed 4194304 bytes'],
    ['{{ printf "%x" .big }}', 'error calling printf: printf: the result can exceed 4194304 bytes'],
    [
      '{{ regexReplaceAll "x" .big "yy" }}',
      'error calling regexReplaceAll: regexReplaceAll: the result can exceed 4194304 bytes',
    ],
  ];
  for (const [t, msg] of cases) {
    const out = run(t, d);
    assert.ok(out.startsWith('ERR line 1, column ') && out.endsWith(msg), `${t}: ${out}`);
  }
  assert.equal(run('{{ .big }}{{ .big }}{{ .big }}', d), 'ERR the rendered text is larger than 4194304 bytes');
  assert.equal(
    run('{{ range until 5000 }}{{ $.lines }}{{ end }}', d),
    'ERR the rendered text is larger than 4194304 bytes',
  );
  // Exact counts for plain strings: exactly at the limit is fine.
  assert.equal(run('{{ join "" .list | len }}', { list: [big, big] }), String(MAX_TEXT_BYTES));
  assert.match(run('{{ join "," .list | len }}', { list: [big, big] }), /join: the result can exceed 4194304 bytes$/);
  assert.equal(run('{{ printf "%s%s" .big .big | len }}', d), String(MAX_TEXT_BYTES));
  // Precision and widths are bounded (Go caps them at 1e6), so these pass.
  assert.equal(run('{{ printf "%.9999f" 1.5 | len }} {{ printf "%*d" 5000000 1 }}', {}), '10001 %!(BADWIDTH)1');
  assert.equal(
    run('{{ indent 2 "a\\nb" }}|{{ replace "a" "bb" "aXa" }}|{{ join "-" (list 1 "a") }}', {}),
    '  a\n  b|bbXbb|1-a',
  );
});

test('errors: Go and Sprig messages give way to a category', () => {
  const cases: [string, unknown, string][] = [
    [
      '{{- range $k, $v := .Parameters }}{{ end }}',
      { Parameters: 'SECRET' },
      `line 1, column 21: range over a value that is not a list or a map, ${W}`,
    ],
    ['{{ regexReplaceAll "(" .x "y" }}', { x: 'SECRET' }, `line 1, column 4: error calling regexReplaceAll, ${W}`],
    ['{{ index .l 5 }}', { l: ['SECRET'] }, `line 1, column 4: error calling index, ${W}`],
    ['{{ index .m 0 }}', { m: { SECRET: 'SECRET' } }, `line 1, column 4: error calling index, ${W}`],
    ['{{ eq .a .b }}', { a: 'SECRET', b: 1 }, `line 1, column 4: error calling eq, ${W}`],
    ['{{ div 1 .z }}', { z: 0 }, `line 1, column 4: error calling div, ${W}`],
    ['{{ until .n }}', { n: 'SECRET' }, `line 1, column 10: wrong type of argument (expected int, got string), ${W}`],
    ['{{ .a.b.c }}', { a: { b: 'SECRET' } }, `line 1, column 6: field c of a value that is not a map, ${W}`],
  ];
  for (const [t, d, msg] of cases) {
    const out = run(t, d);
    assert.equal(out, `ERR ${msg}`, t);
    assert.ok(!out.includes('SECRET'));
  }
});

test('parse errors name the module, the field and the templateHeader', () => {
  assert.equal(
    renderError({ package: pkg({ values: 'a: 1\nb: {{ now }}' }) }),
    `module 'main': could not parse 'values' template: template: :2: function "now" not defined`,
  );
  assert.equal(
    renderError({ package: pkg({ values: 'a: 1' }, { templateHeader: '{{ now }}\n' }) }),
    `module 'main': could not parse 'values' template: in templateHeader: template: :1: function "now" not defined`,
  );
  assert.equal(
    renderError({ package: pkg({ values: '{{ now }}: 1' }, { templateHeader: '{{- $a := 1 }}\n{{- $b := 2 }}' }) }),
    `module 'main': could not parse 'values' template: in templateHeader or on the first line of the template: template: :2: function "now" not defined`,
  );
  assert.equal(
    renderError({ package: pkg({ values: 'a: 1\n{{ now }}' }, { templateHeader: '{{- $a := 1 }}\n' }) }),
    `module 'main': could not parse 'values' template: template: :3: function "now" not defined`,
  );
  assert.equal(
    renderRelease({ release: release({ x: '{{ now }}' }), package: pkg({}) }).error?.message,
    'could not create template from parameters: template: :1: function "now" not defined',
  );
});

test('render messages as the Release status shows them', () => {
  const prefix = "module 'main': could not render 'values' template: ";
  const cases: [string, string][] = [
    [
      'auth:\n  adminPassword: {{ required "parameter \'adminPassword\' is required" .Parameters.adminPassword | quote }}',
      "line 2, column 21: error calling required: parameter 'adminPassword' is required",
    ],
    ['a: 1\nb: 2\nc: 3\nd: e: f', 'the rendered text is not valid YAML (line 4)'],
    [
      '1: a\n"1": b',
      'the rendered text has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"',
    ],
    [
      'true: a\n"true": b',
      'the rendered text has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"',
    ],
    [
      'a: 1\na: 2',
      'the rendered text has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"',
    ],
    ['? null\n: 1', 'the rendered text has a map key that cannot be converted to a string, such as null'],
    ['x: {{ range until 10000 }}{{ printf "%500s" "" }}{{ end }}', 'the rendered text is larger than 4194304 bytes'],
    [
      'a:\n  items: {{ until 20000 }}',
      'line 2, column 13: error calling until: until: the count is beyond the limit of 10000',
    ],
  ];
  for (const [values, msg] of cases)
    assert.equal(renderRelease({ release: release(), package: pkg({ values }) }).error?.message, prefix + msg, values);
  // An invalid rendered text is located in the text that begins with the header's output.
  assert.equal(
    renderRelease({
      release: release(),
      package: pkg({ values: 'a: 1\nb: 2\nd: e: f' }, { templateHeader: '# generated\n' }),
    }).error?.message,
    prefix + 'the rendered text is not valid YAML (line 4)',
  );
  // The range example over a string parameter value.
  const range = renderRelease({
    release: release({ x: 'SECRET' }),
    package: pkg({ values: '{{ range .Parameters.x }}{{ end }}' }),
  });
  assert.equal(
    range.error?.message,
    `${prefix}line 1, column 21: range over a value that is not a list or a map, ${W}`,
  );
  // Schema: path stops before an undeclared property.
  const schema = { parameters: { properties: { host: { type: 'string' } } } };
  assert.equal(
    renderRelease({ release: release({ SECRET: 1 }), package: pkg({}, { schema }) }).error?.message,
    'could not validate parameters: parameters schema validation error: (root): a property is not declared in the schema',
  );
});

test('templateHeader: errors counted from the field or named in the header', () => {
  const header = `{{- $host := required "parameter 'host' is required" .Parameters.host }}\n`;
  const values = `ingress:
  host: {{ $host }}
  port: {{ required "parameter 'port' is required" .Parameters.port }}`;
  const schema = { parameters: { properties: { host: { type: 'string' }, port: { type: 'integer' } } } };
  const p = pkg({ values }, { templateHeader: header, schema });
  assert.equal(
    renderRelease({ release: release({ port: 80 }), package: p }).error?.message,
    "could not render 'roles' template: in templateHeader, line 1, column 14: error calling required: parameter 'host' is required",
  );
  assert.equal(
    renderRelease({ release: release({ host: 'h' }), package: p }).error?.message,
    "module 'main': could not render 'values' template: line 3, column 12: error calling required: parameter 'port' is required",
  );
  const ok = renderRelease({ release: release({ host: 'h', port: 80 }), package: p });
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.modules?.[0]?.values, { ingress: { host: 'h', port: 80 } });
  // A header without a final newline shares its last line with the template's first.
  const shared = '{{- $h := required "need h" .Parameters.h -}}';
  assert.equal(
    run('a: {{ required "need p" .Parameters.p }}', { Parameters: {} }, shared),
    'ERR in templateHeader, line 1, column 11: error calling required: need h',
  );
  assert.equal(
    run('a: {{ required "need p" .Parameters.p }}', { Parameters: { h: 1 } }, shared),
    'ERR line 1, column 7: error calling required: need p',
  );
  assert.equal(
    run('a: 1\nb: {{ required "need p" .Parameters.p }}', { Parameters: { h: 1 } }, shared),
    'ERR line 2, column 7: error calling required: need p',
  );
});

test('imageRedirect: first matching prefix of the Configs in name order', () => {
  const values = `image:
  {{- $image := imageRedirect "quay.io/jetstack/cert-manager-controller:v1.17.0" . }}
  repository: {{ $image.repository }}
  tag: {{ $image.tag }}
  {{- with $image.imagePullPolicy }}
  pullPolicy: {{ . }}
  {{- end }}
  all: {{ toJson $image }}`;
  const conf = (name: string, redirects: unknown[]) =>
    JSON.stringify({
      apiVersion: 'kubocd.kubotal.io/v1alpha1',
      kind: 'Config',
      metadata: { name, namespace: 'kubocd' },
      spec: { imageRedirects: redirects },
    });
  const r = renderRelease({
    release: release(),
    package: pkg({ values }),
    configs: [
      conf('conf02', [{ oldPrefix: 'quay.io/jetstack/', newPrefix: 'late.example/', imagePullPolicy: 'Always' }]),
      conf('conf01', [
        { oldPrefix: 'quay.io/', newPrefix: 'registry.internal:5000/quay/', imagePullSecrets: ['internal-registry'] },
      ]),
    ],
  });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.modules?.[0]?.values, {
    image: {
      repository: 'registry.internal:5000/quay/jetstack/cert-manager-controller',
      tag: 'v1.17.0',
      all: {
        url: 'registry.internal:5000/quay/jetstack/cert-manager-controller:v1.17.0',
        repository: 'registry.internal:5000/quay/jetstack/cert-manager-controller',
        tag: 'v1.17.0',
        registry: 'registry.internal:5000',
        baseRepository: 'quay/jetstack/cert-manager-controller',
        imagePullPolicy: '',
        imagePullSecrets: ['internal-registry'],
      },
    },
  });
  assert.equal(
    run('{{ toJson (imageRedirect "nginx" .) }}', { ImageRedirects: [] }),
    '{"baseRepository":"","imagePullPolicy":"","imagePullSecrets":null,"registry":"nginx","repository":"nginx","tag":"latest","url":"nginx"}',
  );
  assert.equal(
    run('{{ range list 1 }}{{ (imageRedirect "quay.io/a:1" $).imagePullPolicy }}{{ end }}', {
      ImageRedirects: [{ oldPrefix: 'quay.io/', newPrefix: 'x/', imagePullPolicy: 'IfNotPresent' }],
    }),
    'IfNotPresent',
  );
});

test('manifests: colliding or unconvertible map keys are rejected without naming them', () => {
  const collide =
    'the YAML document has a map whose keys are the same once converted to strings, such as 1 and "1", or true and "true"';
  const nullKey = 'the YAML document has a map key that cannot be converted to a string, such as null';
  const yamlPkg = (keys: string) =>
    `apiVersion: v1alpha1\nname: demo\ntag: "1"\nusage:\n${keys}\nmodules:\n  - name: main\n    source: { oci: { repository: r, tag: "1" } }\n`;
  const cases: [string, string][] = [
    ['  1: a\n  "1": b', collide],
    ['  true: a\n  "true": b', collide],
    ['  yes: a\n  true: b', collide],
    ['  k: a\n  k: b', collide],
    ['  ~: a', nullKey],
    ['  [a]: b', nullKey],
    ['  {a: 1}: b', nullKey],
  ];
  for (const [keys, msg] of cases) {
    assert.equal(dumpPackage(yamlPkg(keys)).errors[0], msg, keys);
    assert.equal(renderRelease({ release: release(), package: yamlPkg(keys) }).error?.message, msg, keys);
  }
  assert.equal(dumpPackage(yamlPkg('  "1": a\n  "2": b')).ok, true);
  const base = pkg({ values: 'a: 1' });
  assert.equal(
    renderRelease({ release: RELEASE + '  parameters:\n    true: a\n    "true": b\n', package: base }).error?.message,
    collide,
  );
  const ctx = 'kind: Context\nmetadata: { name: c }\nspec:\n  context:\n    1: a\n    "1": b\n';
  assert.equal(
    renderRelease({ release: release(), package: base, contexts: [ctx] }).error?.message,
    `context file #1: ${collide}`,
  );
});

test('${...} stays as written in manifests and in rendered values', () => {
  const r = renderRelease({
    release: release({ bucket: 's3://${BUCKET}' }),
    package: pkg(
      { values: 'b: {{ .Parameters.bucket }}\nc: ${HOME}\nd: ${NAME:-x}' },
      { description: 'uses ${BUCKET}' },
    ),
  });
  assert.equal(r.error, undefined);
  assert.deepEqual(r.modules?.[0]?.values, { b: 's3://${BUCKET}', c: '${HOME}', d: '${NAME:-x}' });
});

test('quotes in Release.spec.parameters: the second parse', () => {
  const ctx = JSON.stringify({
    kind: 'Context',
    metadata: { name: 'c' },
    spec: { context: { project: { subdomain: 'team1' }, ingress: { domain: 'example.com' }, q: 'a"b' } },
  });
  const host = '{{ printf "podinfo.%s.%s" .Context.project.subdomain .Context.ingress.domain }}';
  const ok = renderRelease({
    release: release({ host }),
    package: pkg({ values: 'h: {{ .Parameters.host }}' }),
    contexts: [ctx],
  });
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.modules?.[0]?.values, { h: 'podinfo.team1.example.com' });
  // Tab and newline between the words of an action are accepted.
  const ws = renderRelease({
    release: release({ host: '{{\tprintf\n"%s" .Context.ingress.domain }}' }),
    package: pkg({}),
    contexts: [ctx],
  });
  assert.equal(ws.error, undefined);
  assert.equal((ws.model as { Parameters: { host: string } }).Parameters.host, 'example.com');
  // A backslash inside an action keeps the error of the stored text.
  const bs = renderRelease({ release: release({ host: '{{ printf "a\\tb%s" "x" }}' }), package: pkg({}) });
  assert.match(bs.error?.message ?? '', /^could not create template from parameters: template: :1: /);
  // A newline inside a string is refused too.
  const nl = renderRelease({ release: release({ host: '{{ printf "a\nb" }}' }), package: pkg({}) });
  assert.match(nl.error?.message ?? '', /^could not create template from parameters: /);
  // The rendered text is inserted without escaping: a quote breaks the document.
  const broken = renderRelease({ release: release({ x: '{{ .Context.q }}' }), package: pkg({}), contexts: [ctx] });
  assert.equal(broken.error?.message, 'could not render parameters: the rendered text is not valid YAML (line 1)');
  // Comments may hold anything.
  const cm = renderRelease({ release: release({ x: '{{/* "\\ */}}v' }), package: pkg({}) });
  assert.equal(cm.error, undefined);
});

test('kubocd render: model.yaml first, HelmReleases, and model.yaml even on error', () => {
  const ok = renderRelease({
    release: release({ a: 1 }),
    package: pkg({ values: 'a: {{ .Parameters.a }}', specPatch: { install: { remediation: { retries: 3 } } } }),
  });
  assert.equal(ok.error, undefined);
  assert.deepEqual(
    ok.files.map((f) => f.path),
    ['model.yaml', 'helmReleases/demo-main.yaml'],
  );
  assert.match(
    ok.files[0]!.text,
    /^Context: {}\nImageRedirects: \[\]\nInputLists: {}\nInputs: {}\nParameters:\n  a: 1\nRelease:\n/,
  );
  assert.match(ok.files[1]!.text, /remediation:\n\s+retries: 3/);
  const bad = renderRelease({ release: release(), package: pkg({ values: '{{ fail "boom" }}' }) });
  assert.equal(
    bad.error?.message,
    "module 'main': could not render 'values' template: line 1, column 4: error calling fail: boom",
  );
  assert.deepEqual(
    bad.files.map((f) => f.path),
    ['model.yaml'],
  );
  const patch = renderRelease({ release: release(), package: pkg({ specPatch: { nope: 1 } }) });
  assert.equal(
    patch.error?.message,
    "failed to populate HelmRelease 'demo-main': specPatch of module 'main' has a field that HelmRelease does not define",
  );
});

test('dumpPackage: every function outside the list, without running anything', () => {
  const d = dumpPackage(
    pkg({ values: 'a: {{ now }}\nb: {{ randAlphaNum 5 }}\nc: {{ fail "never run" }}', timeout: '{{ env "X" }}' }),
  );
  assert.equal(d.ok, false);
  assert.deepEqual(d.unknownFunctions, ['env', 'now', 'randAlphaNum']);
  assert.deepEqual(d.errors, [
    `module 'main': could not parse 'values' template: template: :1: function "now" not defined`,
    `module 'main': could not parse 'values' template: template: :2: function "randAlphaNum" not defined`,
    `module 'main': could not parse 'timeout' template: template: :1: function "env" not defined`,
  ]);
  assert.deepEqual(dumpPackage(pkg({ values: 'a: {{ fail "x" }}' })).errors, []);
});
