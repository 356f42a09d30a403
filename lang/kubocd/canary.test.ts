/**
 * Fuzz: no error message ever quotes the data. Random data has a unique
 * canary planted in every string and every map key; a set of templates that
 * fail on such data in many ways (Go actions, Sprig and KuboCD functions,
 * limits, invalid or colliding rendered YAML, schema validation) must fail,
 * if at all, with messages free of the canary. Deterministic seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KubocdError, KubocdTemplate, renderRelease } from './index.js';

const CANARY = 'Zq7CANARYx';

const str = fc.string({ maxLength: 12 }).map((s) => `${s}${CANARY}${s}`);
const key = fc
  .oneof(str, fc.constantFrom('a', 'b', 'c', '1', 'true'))
  .map((k) => (k.includes(CANARY) ? k : k + CANARY));

const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    str,
    fc.integer({ min: -20000, max: 20000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));

const TEMPLATES = [
  '{{ range .P.a }}{{ . }}{{ end }}',
  '{{ index .P.a .P.b }}',
  '{{ index .P.a 0 1 }}',
  '{{ regexReplaceAll .P.a .P.b "x$1" }}',
  '{{ regexReplaceAll "(" .P.a "x" }}',
  '{{ printf "%d %s %q %x %v %#v %p" .P.a .P.b .P.a .P.b .P.a .P.b }}',
  '{{ eq .P.a .P.b }}',
  '{{ lt .P.a .P.b }}',
  '{{ until .P.a }}',
  '{{ slice .P.a 0 1 }}',
  '{{ slice .P.a .P.b }}',
  '{{ int .P.a }}{{ float64 .P.b }}',
  '{{ div .P.a .P.b }}{{ divf .P.a .P.b }}',
  '{{ .P.a.b.c }}',
  '{{ urlParse .P.a }}',
  'x: {{ .P.a }}\ny: {{ .P.b }}',
  '{{ .P.a }}: 1\n{{ .P.b }}: 2',
  '{{ toYaml .P }}',
  '{{ toJson .P }}',
  '{{ fromYaml .P.a | toJson }}',
  '{{ fromJson .P.a | toJson }}',
  '{{ trunc .P.a .P.b }}',
  '{{ dig "a" "b" .P.a }}',
  '{{ len .P.a }}',
  '{{ call .P.a }}',
  '{{ split .P.a .P.b }}{{ splitList .P.a .P.b }}',
  '{{ set .P.a "k" 1 }}',
  '{{ hasKey .P.a "k" }}{{ has .P.a .P.b }}',
  '{{ sha256sum .P.a }}{{ kindIs .P.a .P.b }}',
  '{{ join .P.a .P.b }}',
  '{{ indent .P.a .P.b }}{{ nindent .P.b .P.a }}',
  '{{ replace .P.a .P.b .P.a }}',
  '{{ mulf .P.a .P.b }}{{ min .P.a .P.b }}',
  '{{ omit .P.a "x" }}{{ first .P.a }}{{ last .P.b }}',
  '{{ append .P.a .P.b }}{{ prepend .P.a .P.b }}{{ concat .P.a .P.b }}',
  '{{ uniq .P.a }}{{ compact .P.b }}{{ sortAlpha .P.a }}',
  '{{ keys .P.a .P.b }}',
  '{{ imageRedirect .P.a .P.b }}',
  '{{ quote .P.a }}{{ upper .P.b }}{{ title .P.a }}{{ trimAll .P.a .P.b }}',
  '{{ coalesce .P.a .P.b }}{{ ternary .P.a .P.b .P.a }}{{ default .P.a .P.b }}{{ empty .P.a }}',
  '{{ html .P.a }}{{ js .P.b }}{{ urlquery .P.a }}{{ print .P.a }}{{ println .P.b }}',
  '{{ with .P.a }}{{ .x }}{{ end }}{{ template "t" .P.a }}{{ define "t" }}{{ .y.z }}{{ end }}',
  '{{ and .P.a .P.b }}{{ or .P.a .P.b }}{{ not .P.a }}{{ ne .P.a .P.b }}{{ ge .P.a .P.b }}',
  '{{ range $i, $v := .P.a }}{{ $v.q }}{{ end }}',
  '{{ get .P.a "k" }}{{ dict .P.a .P.b }}{{ list .P.a }}',
];

test('no execution error message contains a string of the data', () => {
  const compiled = TEMPLATES.map((t) => KubocdTemplate.compile(t, '', { packageTemplate: true }));
  let errors = 0;
  fc.assert(
    fc.property(value, value, (a, b) => {
      for (const t of compiled) {
        try {
          t.render({ P: { a, b } });
        } catch (e) {
          assert.ok(e instanceof KubocdError, `not a KubocdError: ${String(e)}`);
          errors++;
          assert.ok(!e.message.includes(CANARY), e.message);
          assert.ok(!e.message.includes('CANARY'), e.message);
        }
      }
    }),
    { numRuns: 150, seed: 20261202 },
  );
  assert.ok(errors > 1000, `the templates should fail often on random data (${errors})`);
});

test('no rendering error (YAML, keys, schema, parameters) contains a string of the data', () => {
  const schema = {
    parameters: {
      properties: {
        host: { type: 'string' },
        n: { type: 'integer', required: true },
        l: { type: 'array', items: { type: 'string' } },
      },
    },
    context: {
      properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false } },
    },
  };
  const pkg = JSON.stringify({
    apiVersion: 'v1alpha1',
    name: 'demo',
    tag: '1',
    schema,
    modules: [
      {
        name: 'main',
        source: { oci: { repository: 'r', tag: '1' } },
        values: '{{ .Context.x }}: {{ .Context.y }}\n{{ toYaml .Context }}',
        specPatch: '{{ .Context.y }}: 1',
        enabled: '{{ .Context.x }}',
        timeout: '{{ .Context.y }}',
        dependsOn: '{{ toJson .Context.x }}',
      },
    ],
  });
  let errors = 0;
  fc.assert(
    fc.property(value, value, value, (x, y, p) => {
      const context = JSON.stringify({
        kind: 'Context',
        metadata: { name: 'c' },
        spec: { context: { x, y, a: { b: x } } },
      });
      const release = JSON.stringify({
        apiVersion: 'kubocd.kubotal.io/v1alpha1',
        kind: 'Release',
        metadata: { name: 'demo', namespace: 'apps' },
        spec: { parameters: { host: '{{ .Context.x }}', n: p, l: [p], m: { k: '{{ toJson .Context.y }}' } } },
      });
      const r = renderRelease({ release, package: pkg, contexts: [context] });
      if (r.error) {
        errors++;
        assert.ok(!r.error.message.includes(CANARY), r.error.message);
      }
    }),
    { numRuns: 150, seed: 7 },
  );
  assert.ok(errors > 100, `rendering should fail often on random data (${errors})`);
});
