/**
 * What ytt prints: `--data-values-inspect` (YAML or `-o json`) and
 * `--data-values-schema-inspect -o openapi-v3`. Keys keep their order, as
 * ytt's YAML tree does.
 */
import { marshalYaml, YamlMapSlice, type YamlValue } from '../go/yaml-v2-emit/index.js';
import { SFloat, YArray, YMap, type YValue } from './nodes.js';
import type { SchemaType } from './schema.js';

/** A YAML value for the go-yaml emitter: ints as bigint (always decimal), floats as numbers. */
function forEmitter(v: YValue): YamlValue {
  // keys keep their YAML type, and the map its order: ytt prints `n:` (YAML 1.1's false) as `false:`
  if (v instanceof YMap)
    return new YamlMapSlice(
      v.items.map((i) => [
        i.key instanceof SFloat ? i.key.v : typeof i.key === 'number' ? BigInt(i.key) : i.key,
        forEmitter(i.value),
      ]),
    );
  if (v instanceof YArray) return v.items.map((i) => forEmitter(i.value));
  if (v instanceof SFloat) return v.v;
  if (typeof v === 'number') return BigInt(v);
  return v;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64) as go-yaml v2 writes floats. */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [m, e] = n.toExponential().split('e');
    const ev = Number(e);
    return `${m}e${ev < 0 ? '-' : '+'}${String(Math.abs(ev)).padStart(2, '0')}`;
  }
  return String(n);
}

function toYamlText(v: YamlValue): string {
  return marshalYaml(v, { numberText: goFloat, digitRunFix: false, keepKeyOrder: true });
}

/** `ytt --data-values-inspect` */
export function dataValuesYaml(values: YValue): string {
  return toYamlText(forEmitter(values));
}

/** Go's encoding/json of the values: compact, map keys sorted bytewise (ytt turns maps into Go maps first). */
function jsonText(v: YValue): string {
  if (v instanceof YMap) {
    const entries = v.items.map((i) => [String(i.key instanceof SFloat ? i.key.v : i.key), i.value] as const);
    entries.sort((a, b) => byteCompare(a[0], b[0]));
    return '{' + entries.map(([k, x]) => `${goJsonString(k)}:${jsonText(x)}`).join(',') + '}';
  }
  if (v instanceof YArray) return '[' + v.items.map((i) => jsonText(i.value)).join(',') + ']';
  if (v instanceof SFloat) return JSON.stringify(v.v);
  if (typeof v === 'string') return goJsonString(v);
  return JSON.stringify(v);
}

const utf8 = new TextEncoder();
function byteCompare(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** encoding/json escapes <, > and & as \u003c, \u003e, \u0026 */
function goJsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** `ytt --data-values-inspect -o json` (no trailing newline, as ytt prints it) */
export function dataValuesJson(values: YValue): string {
  return jsonText(values);
}

const PROP_ORDER = [
  'title',
  'type',
  'additionalProperties',
  'format',
  'nullable',
  'deprecated',
  'description',
  'x-example-description',
  'example',
  'items',
  'properties',
  'default',
];

function ordered(o: { [k: string]: YamlValue }): { [k: string]: YamlValue } {
  const out: { [k: string]: YamlValue } = {};
  for (const k of PROP_ORDER) {
    const v = o[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function docProps(t: SchemaType): { [k: string]: YamlValue } {
  const o: { [k: string]: YamlValue } = {};
  if (t.docs.title) o.title = t.docs.title;
  if (t.docs.description) o.description = t.docs.description;
  if (t.docs.deprecated) o.deprecated = true;
  return o;
}

function defaultValue(t: SchemaType, d: YValue): YamlValue {
  const override = (t as { override?: YValue }).override;
  return forEmitter(override !== undefined ? override : d);
}

function props(t: SchemaType): { [k: string]: YamlValue } {
  const o = docProps(t);
  switch (t.kind) {
    case 'map': {
      o.type = 'object';
      o.additionalProperties = false;
      const p: { [k: string]: YamlValue } = {};
      for (const i of t.items) p[String(i.key)] = props(i.type);
      o.properties = p;
      break;
    }
    case 'array':
      o.type = 'array';
      o.default = defaultValue(t, t.default);
      o.items = props(t.item);
      break;
    case 'scalar':
      o.default = defaultValue(t, t.default);
      o.type = t.scalar === 'float' ? 'number' : t.scalar;
      if (t.scalar === 'float') o.format = 'float';
      break;
    case 'null': {
      o.nullable = true;
      const inner = props(t.inner);
      Object.assign(o, inner, docProps(t));
      const override = (t as { override?: YValue }).override;
      if ('default' in inner || override !== undefined)
        o.default = override !== undefined ? forEmitter(override) : null;
      break;
    }
    case 'any':
      o.nullable = true;
      o.default = defaultValue(t, t.default);
      break;
  }
  return ordered(o);
}

/** The OpenAPI v3 document of `ytt --data-values-schema-inspect -o openapi-v3`, as a plain object. */
export function openApiDocument(schema: SchemaType | undefined): YamlValue {
  return {
    openapi: '3.0.0',
    info: { version: '0.1.0', title: 'Schema for data values, generated by ytt' },
    paths: {},
    components: {
      schemas: { dataValues: schema ? props(schema) : { type: 'object', additionalProperties: false, properties: {} } },
    },
  };
}

export function openApiYaml(schema: SchemaType | undefined): string {
  return toYamlText(openApiDocument(schema));
}
