// values.schema.json validated against the final values, per chart, as Helm does (hazards 10, 11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChartError, loadChart, renderTemplates } from './index.js';

const enc = new TextEncoder();

function chart(schema: string, extra: Record<string, string> = {}): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
    'c/values.yaml': 'replicas: 1\nimage:\n  tag: "1.0"\nports: [80]\n',
    'c/values.schema.json': schema,
    'c/templates/t.yaml': 'r: {{ .Values.replicas }}\n',
    ...extra,
  };
  return new Map(Object.entries(files).map(([k, v]) => [k, enc.encode(v)]));
}

const schema = JSON.stringify({
  type: 'object',
  required: ['replicas', 'image'],
  properties: {
    replicas: { type: 'integer', minimum: 1 },
    image: { type: 'object', properties: { tag: { type: 'string' } } },
    ports: { type: 'array', items: { type: 'integer', maximum: 65535 } },
  },
});

function render(files: Map<string, Uint8Array>, values: Record<string, unknown> = {}): Map<string, string> {
  return renderTemplates(loadChart(files), { releaseName: 'r', namespace: 'n', values });
}

function schemaError(files: Map<string, Uint8Array>, values: Record<string, unknown> = {}): string {
  try {
    render(files, values);
  } catch (e) {
    assert.ok(e instanceof ChartError, String(e));
    assert.equal(e.code, 'HELM_SCHEMA');
    return e.message;
  }
  assert.fail('expected a schema error');
}

const HEAD = "values don't meet the specifications of the schema(s) in the following chart(s):\n";

test('schema: valid values render', () => {
  assert.equal(render(chart(schema)).get('c/templates/t.yaml'), 'r: 1\n');
});

// Lines come in the validator's order (properties by name).
test('schema: each violation is a line with the JSON pointer of the bad value (santhosh-tekuri/jsonschema v6)', () => {
  const msg = schemaError(chart(schema), { replicas: 0, image: { tag: 5 }, ports: [80, 70000] });
  assert.equal(
    msg,
    HEAD +
      'c:\n' +
      "- at '/image/tag': got number, want string\n" +
      "- at '/ports/1': maximum: got 70,000, want 65,535\n" +
      "- at '/replicas': minimum: got 0, want 1\n",
  );
});

test("schema: a missing required value is reported at ''", () => {
  const files = chart(schema);
  const msg = schemaError(files, { image: null });
  assert.equal(msg, HEAD + "c:\n- at '': missing property 'image'\n");
});

test('schema: the subchart is checked against its own values, under its name', () => {
  const subSchema = JSON.stringify({ properties: { level: { enum: ['debug', 'info'] } } });
  const files = chart(schema, {
    'c/charts/sub/Chart.yaml': 'apiVersion: v2\nname: sub\nversion: 0.1.0\n',
    'c/charts/sub/values.yaml': 'level: info\n',
    'c/charts/sub/values.schema.json': subSchema,
  });
  assert.doesNotThrow(() => render(files));
  const msg = schemaError(files, { replicas: 0, sub: { level: 'trace' } });
  assert.equal(
    msg,
    HEAD +
      "c:\n- at '/replicas': minimum: got 0, want 1\n" +
      "sub:\n- at '/level': value must be one of 'debug', 'info'\n",
  );
});

test('schema: invalid JSON is reported for the chart', () => {
  assert.match(schemaError(chart('{ nope')), /^values don't meet .*\nc:\n- values\.schema\.json: invalid JSON: /s);
});

test('hazard 10: $ref to a file or URL is refused, nothing is read', () => {
  for (const ref of ['file:///etc/passwd', '/dev/zero', 'https://example.com/s.json', 'other.json#/x']) {
    const s = JSON.stringify({ properties: { replicas: { $ref: ref } } });
    const msg = schemaError(chart(s));
    assert.match(msg, /c:\n- values\.schema\.json: schema does not compile: .*points outside this schema document/);
  }
});

test('hazard 11: a 10k-deep $ref chain is a bounded error, not a stack overflow', () => {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < 10000; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
  defs.d10000 = { type: 'integer' };
  const msg = schemaError(chart(JSON.stringify({ $defs: defs, properties: { replicas: { $ref: '#/$defs/d0' } } })));
  assert.match(msg, /schema does not compile: .*deeper than 1000/);
});

test('hazard 11: a self-referential $ref is an error, not a hang', () => {
  const msg = schemaError(chart(JSON.stringify({ $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' })));
  assert.match(msg, /schema does not compile: .*infinite loop/);
});

test('schema: deeply nested values give a bounded error', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 3000; i++) deep = { x: deep };
  const nested: Record<string, unknown> = { type: 'object' };
  nested.additionalProperties = { $ref: '#' };
  const msg = schemaError(chart(JSON.stringify(nested)), { deep });
  assert.match(msg, /c:\n- values\.schema\.json: .*nested/);
});

// Helm 3.18 (kubecfg's) validates with santhosh-tekuri/jsonschema v6: "json-schema.org/schema" is its
// latest draft (bitnami's and opentelemetry-collector's charts write it), other URIs name a metaschema.
test('schema: a legacy or unknown $schema is validated as draft 2020-12', () => {
  for (const uri of [
    'http://json-schema.org/schema#',
    'https://json-schema.org/schema',
    'https://example.com/my-metaschema.json',
  ]) {
    const s = JSON.stringify({ $schema: uri, ...JSON.parse(schema) });
    assert.equal(render(chart(s)).get('c/templates/t.yaml'), 'r: 1\n', uri);
    const msg = schemaError(chart(s), { replicas: 0 });
    assert.equal(msg, `${HEAD}c:\n- at '/replicas': minimum: got 0, want 1\n`, uri);
  }
});

test('schema: draft 2020-12 keywords apply under the legacy $schema', () => {
  const s = JSON.stringify({
    $schema: 'http://json-schema.org/schema#',
    properties: { ports: { prefixItems: [{ const: 80 }] } },
  });
  assert.match(schemaError(chart(s), { ports: [81] }), /c:\n- at '\/ports\/0': /);
});

// Several errors of one value are grouped under it; large numbers are printed as the library's
// English printer does (thousands separators; `× 10ⁿ` where fmt would use an exponent).
test('schema: errors of one value are grouped, numbers localised (Helm 3.18 output)', () => {
  const s = JSON.stringify({
    properties: {
      image: { properties: { tag: { type: 'string' }, pull: { enum: ['Always', 'Never'] } } },
      ports: { items: { maximum: 65535 } },
    },
  });
  const msg = schemaError(chart(s), { image: { tag: 5, pull: 'x' }, ports: [80, 70000, 1.5e22] });
  assert.equal(
    msg,
    HEAD +
      'c:\n' +
      "- at '/image': validation failed\n" +
      "  - at '/image/pull': value must be one of 'Always', 'Never'\n" +
      "  - at '/image/tag': got number, want string\n" +
      "- at '/ports': validation failed\n" +
      "  - at '/ports/1': maximum: got 70,000, want 65,535\n" +
      "  - at '/ports/2': maximum: got 1.5\u202f×\u202f10²², want 65,535\n",
  );
});
