/**
 * Inputs (§8), regexes (RE2), YAML/JSON output, the import-root rule
 * (hazards 1–3) and imports (§4.1).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { decodeValue } from './decode.js';
import { compileRe2 } from './re2.js';
import { isInsideRoot, resolveImportPath } from './paths.js';
import { toJsonText, toYamlStream, yamlNeedsQuotes } from './serialize.js';
import { checkText, exportText } from '../../test/support/cleat-kit.js';
import { ObjectValue, toJsonValue, type Value } from './value.js';
import { argocdParameterAnnouncements } from './argocd.js';
import { memoryLoader, ROOT } from '../../test/support/cleat-kit.js';
import { generateSchemaTypes } from './gen.js';

test('--set: string first, else JSON; input files; Argo CD parameters', () => {
  const src =
    'input name: Str\ninput replicas: Int\ninput flag: Bool = false\ninput tags: [Str] = []\ninput either: Str | Int = 0\nexport { name: name, replicas: replicas, flag: flag, tags: tags, either: either }\n';
  assert.equal(
    exportText(src, {}, { sets: ['name=web', 'replicas=3', 'flag=true', 'tags=["a"]', 'either=3'] }),
    '---\nname: web\nreplicas: 3\nflag: true\ntags:\n- a\neither: "3"\n',
  );
  assert.equal(
    exportText(src, {}, { sets: ['name=3', 'replicas=3'] }),
    '---\nname: "3"\nreplicas: 3\nflag: false\ntags: []\neither: 0\n',
  );
  assert.equal(
    exportText(src, {}, { sets: ['name=web', 'replicas=three'] }),
    'ERROR\n2:1 CLEAT_TYPE_MISMATCH input `replicas` (Int): expected Int, found "three" (at replicas)',
  );
  assert.equal(exportText(src, {}, { sets: ['name'] }), 'ERROR\nCLEAT_INPUT --set expects name=value, found "name"');
  const file = new ObjectValue(
    new Map<string, Value>([
      ['name', 'f'],
      ['replicas', 2n],
    ]),
  );
  assert.match(
    exportText(src, {}, { files: [{ name: 'values.yaml', value: file }], sets: ['replicas=4'] }),
    /name: f\nreplicas: 4\n/,
  );
  const argo = JSON.stringify([
    { name: 'name', string: 'web' },
    { name: 'replicas', string: '5' },
    { name: 'tags', array: ['x', 'y'] },
  ]);
  assert.match(
    exportText(src, {}, { argocdParameters: argo }),
    /name: web\nreplicas: 5\nflag: false\ntags:\n- x\n- "y"\n/,
  );
  const ann = argocdParameterAnnouncements({ path: `${ROOT}/main.cleat`, text: src }, memoryLoader({}));
  assert.ok(ann.ok);
  assert.deepEqual(
    ann.parameters.map((p) => [p.name, p.collectionType, p.required]),
    [
      ['name', 'string', true],
      ['replicas', 'string', true],
      ['flag', 'string', false],
      ['tags', 'array', false],
      ['either', 'string', false],
    ],
  );
});

test('decoding: 64-bit ints exact, non-finite floats and huge ints rejected, key order kept', () => {
  assert.equal(
    toJsonText(decodeValue('{"b": 1, "a": 9223372036854775807, "1": 2}', 'json'), 0),
    '{"b":1,"a":9223372036854775807,"1":2}',
  );
  assert.throws(() => decodeValue('x: .inf', 'yaml'), /not finite/);
  assert.throws(() => decodeValue('x: .nan', 'yaml'), /not finite/);
  assert.throws(() => decodeValue('{"x": 9223372036854775808}', 'json'), /64 bits/);
  assert.throws(() => decodeValue('{"x": 1, "x": 2}', 'json'), /invalid JSON/);
  // YAML inputs are read by go-yaml v2's rules (YAML 1.1), as Argo CD and kubectl read them
  assert.equal(
    toJsonText(decodeValue('a: yes\nb: 0777\nc: 1_000\nd: "yes"\ne: 1.0', 'yaml'), 0),
    '{"a":true,"b":511,"c":1000,"d":"yes","e":1}',
  );
  assert.throws(
    () => decodeValue('x: 1\nx: 2', 'yaml'),
    /invalid YAML: yaml: unmarshal errors:\n {2}line 2: key "x" already set in map/,
  );
  // Hazard 13: an alias bomb is refused quickly, not expanded.
  const bomb = [
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    ...Array.from(
      { length: 8 },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
    ),
  ].join('\n');
  assert.throws(() => decodeValue(bomb, 'yaml'), /invalid YAML/);
});

test('RE2: accepted syntax translates, what RE2 rejects is rejected', () => {
  const ok: [string, string, boolean][] = [
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'web-1', true],
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'Web', false],
    ['(?i)^abc$', 'ABC', true],
    ['^(?P<x>a+)$', 'aaa', true],
    ['^[[:digit:]]+$', '123', true],
    ['\\Aab\\z', 'ab', true],
    ['^\\pL+$', 'héllo', true],
    ['a{2,3}', 'aa', true],
    ['^\\Q.*\\E$', '.*', true],
    ['^\\s$', '\u00a0', false],
  ];
  for (const [re, s, want] of ok) {
    const r = compileRe2(re);
    assert.ok(typeof r !== 'string', `${re}: ${String(r)}`);
    assert.equal(r.test(s), want, `${re} on ${s}`);
  }
  for (const bad of [
    '(a)\\1',
    '(?=a)',
    '(?!a)',
    '(?<=a)b',
    '(?>a)',
    'a{1001}',
    'a++',
    '(a',
    'a)',
    '[a',
    '\\8',
    '\\Z',
  ]) {
    assert.equal(typeof compileRe2(bad), 'string', bad);
  }
  assert.deepEqual(checkText('let a = matches("x", "(?=x)")\n'), [
    '1:22 CLEAT_REGEX error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
  ]);
});

test('matches() runs in linear time: a catastrophic pattern on 10,000 characters answers', () => {
  const subject = `${'a'.repeat(10000)}!`;
  const src = `export { hit: matches("${subject}", "^(a+)+$"), whole: matches("${subject.slice(0, -1)}", "^(a+)+$") }\n`;
  assert.equal(exportText(src), '---\nhit: false\nwhole: true\n');
});

test('YAML output quotes what YAML would read as something else', () => {
  for (const s of [
    'no',
    'yes',
    'on',
    'off',
    'y',
    'n',
    'true',
    'null',
    '~',
    '',
    '1.0',
    '1',
    '0x1F',
    '0o17',
    '1e3',
    '.inf',
    '.nan',
    '12:30',
    '2024-01-01',
    '- a',
    'a: b',
    'a #b',
    ' x',
    '@x',
    '*x',
    '&x',
    '!x',
    '%x',
    '{a}',
    '[a]',
    'a\tb',
  ]) {
    assert.ok(yamlNeedsQuotes(s), s);
  }
  for (const s of ['web', 'nginx:1.25', 'http-8080', 'a b', 'app.kubernetes.io/name'])
    assert.ok(!yamlNeedsQuotes(s), s);
});

const arbJsonish: fc.Arbitrary<Value> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.bigInt({ min: -(1n << 53n), max: 1n << 53n }),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    fc.string(),
    fc.constantFrom('no', '~', '1.0', 'a: b', 'x\ny\n', 'x\n\n', ' lead', 'tail\n'),
    fc.array(tie('v'), { maxLength: 3 }),
    fc
      .array(fc.tuple(fc.string(), tie('v')), { maxLength: 3 })
      .map((es) => new ObjectValue(new Map(es as [string, Value][]))),
  ),
})).v as fc.Arbitrary<Value>;

test('property: exported YAML and JSON parse back to the same JSON', () => {
  fc.assert(
    fc.property(arbJsonish, (v) => {
      const want = toJsonValue(v);
      assert.deepEqual(JSON.parse(toJsonText(v)), want);
      const back = parseYaml(toYamlStream([v]).replace(/^---\n/, ''), { version: '1.1' }) as unknown;
      assert.deepEqual(back, want);
    }),
    { numRuns: 400 },
  );
});

test('project-root rule: .., absolute paths, shared prefixes, NUL (hazards 1-3)', () => {
  const root = '/repo';
  const cases: [string, string, boolean][] = [
    ['/repo/a/main.cleat', './b.cleat', true],
    ['/repo/a/main.cleat', '../lib/x.cleat', true],
    ['/repo/a/main.cleat', '../../etc/passwd', false],
    ['/repo/a/main.cleat', '..///../bad//../x', false],
    ['/repo/a/main.cleat', 'sub/..f', true],
    ['/repo/main.cleat', '../repo2/x.cleat', false],
    ['/repo/main.cleat', '/etc/passwd', false],
    ['/repo/main.cleat', 'a\0b', false],
    ['/repo/main.cleat', '', false],
  ];
  for (const [from, spec, ok] of cases)
    assert.equal('path' in resolveImportPath(root, from, spec), ok, `${from} + ${spec}`);
  assert.ok(isInsideRoot('/repo', '/repo'));
  assert.ok(!isInsideRoot('/repo', '/repo2/x'));
  assert.ok(isInsideRoot('/', '/x'));
  assert.deepEqual(checkText('import x from "../../../etc/passwd" with { type: "text" }\n'), [
    '1:15 CLEAT_IMPORT_OUTSIDE_ROOT import "../../../etc/passwd" leaves the project root',
  ]);
});

test('imports: forms, attributes, data, modules, cycles, module errors at the import line', () => {
  const files = {
    'defaults.yaml': 'replicas: 2\nname: web\n',
    'settings.json': '{"port": 8080}',
    'nginx.conf': 'server {}\n',
    'base.cleat':
      'type Port = Int where 1 <= self && self <= 65535\nlet app = "api"\nfn part_of(n: Str) -> Str = "\\(n)-app"\n',
    'bad.cleat': 'let x = 1\ninput y: Int\nlet z = nope\n',
    'a.cleat': 'import * as b from "./b.cleat"\n',
    'b.cleat': 'import * as a from "./a.cleat"\n',
  };
  const src = `import defaults from "./defaults.yaml" with { type: "yaml" }
import settings from "./settings.json" with { type: "json" }
import nginxConf from "./nginx.conf" with { type: "text" }
import { app, part_of, Port } from "./base.cleat"
import * as base from "./base.cleat"
let p: Port = settings.port
export { r: defaults.replicas, n: defaults.name, p: p, conf: nginxConf, app: app, po: part_of(app), q: base.part_of("x"), t: base.app }
`;
  assert.equal(
    exportText(src, files),
    '---\nr: 2\n"n": web\np: 8080\nconf: |\n  server {}\napp: api\npo: api-app\nq: x-app\nt: api\n',
  );
  assert.deepEqual(
    checkText(
      `import d from "./defaults.yaml"
import * as s from "./settings.json" with { type: "json" }
import x from "./x.txt" with { type: "toml" }
import * as bad from "./bad.cleat"
import * as a from "./a.cleat"
import { nothing } from "./base.cleat"
import m from "./missing.yaml" with { type: "yaml" }
`,
      files,
    ),
    [
      '1:1 CLEAT_IMPORT a default import needs `with { type: "yaml" | "json" | "text" }`',
      '2:43 CLEAT_IMPORT a `type` attribute is only allowed on a default import (`import x from "f" with { type: ... }`)',
      '3:30 CLEAT_IMPORT unknown import type "toml": use "yaml", "json" or "text"',
      '4:22 CLEAT_MODULE_ITEM in imported module: bad.cleat:2:1: a module cannot declare inputs: pass values as function parameters',
      '4:22 CLEAT_UNKNOWN_NAME in imported module: bad.cleat:3:9: unknown name `nope`',
      '5:20 CLEAT_IMPORT_CYCLE in imported module: a.cleat:1:20: in imported module: b.cleat:1:20: import cycle: a.cleat -> b.cleat -> a.cleat',
      '6:10 CLEAT_UNKNOWN_NAME module "./base.cleat" has no `nothing`',
      '7:15 CLEAT_IMPORT cannot import "./missing.yaml": file not found',
    ],
  );
});

test('CRD schemas: <version>.<Kind>, nested names, storage version short name', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: cert-manager.io
  names: { kind: Certificate }
  versions:
  - name: v1alpha1
    storage: false
    schema: { openAPIV3Schema: { type: object, properties: { spec: { type: object, properties: { old: { type: string } } } } } }
  - name: v1
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [secretName]
            properties:
              secretName: { type: string }
              issuerRef: { type: object, properties: { name: { type: string } } }
`;
  const files = { 'crds/cert.yaml': crd };
  const src = `import * as cm from "./crds/cert.yaml"
let a = cm.Certificate { metadata: {}, spec.secretName: "s", spec.issuerRef.name: "x" }
let b: cm.v1.CertificateSpecIssuerRef = { name: "y" }
let c = cm.v1alpha1.Certificate { spec.old: "o" }
let d = cm.Certificate { spec.issuerRef.nmae: "x" }
export a
`;
  assert.deepEqual(
    checkText(src, files),
    [
      '5:41 CLEAT_UNKNOWN_FIELD unknown field `nmae` in `v1.CertificateSpecIssuerRef`; did you mean `name`? (at spec.issuerRef.nmae)',
      '5:26 CLEAT_MISSING_FIELD missing required field `secretName` of `v1.CertificateSpec` (at spec.secretName)',
    ]
      .sort((x, y) => (x < y ? -1 : 1))
      .reverse()
      .reverse()
      .sort((x, y) => Number(x.split(':')[1]) - Number(y.split(':')[1])),
  );
  assert.equal(
    exportText(src.replace(/let d.*\n/, ''), files),
    '---\napiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {}\nspec:\n  secretName: s\n  issuerRef:\n    name: x\n',
  );
  const gen = generateSchemaTypes(crd, 'yaml');
  assert.ok(gen.ok);
  assert.match(
    gen.text,
    /\/\/ short name: Certificate\ntype v1\.Certificate = \{\n  apiVersion: "cert-manager.io\/v1",/,
  );
});
