/**
 * values.schema.json checked against the final (coalesced) values as Helm's
 * chartutil.ValidateAgainstSchema does: each chart with a schema is checked
 * against its own values, every subchart against the values under its name,
 * and all failures are reported together as
 * `values don't meet the specifications of the schema(s) in the following chart(s):`
 * then, per failing chart, `<chart>:` and the error tree of
 * santhosh-tekuri/jsonschema v6 (`- at '/a/b/0': got number, want string`,
 * several errors of one value grouped under `- at '/a': validation failed`),
 * as Helm 3.18 prints it (lang/jsonschema/validate-v6.ts).
 * `$schema`: Helm 3.18's validator (santhosh-tekuri/jsonschema v6) takes
 * `http(s)://json-schema.org/schema#` as its latest draft (2020-12) and would
 * download any other metaschema; nothing is downloaded here, so an unknown
 * `$schema` is validated as 2020-12, the library's default draft.
 * Invariants: `$ref` resolves only inside the schema document (no file or
 * URL is ever read), depth is bounded, so a hostile schema gives an error.
 */

import type { JsonValue } from '../common/json.js';
import { jsonObject } from '../common/json.js';
import {
  compileSchema,
  SchemaCompileError,
  ValidationDepthError,
  ValidatorV6,
  v6ErrorLines,
} from '../jsonschema/index.js';
import { GoFloat, GoObject, isMap } from '../gotemplate/value.js';
import type { Chart } from './chart.js';
import { ChartError } from './chart-error.js';
import type { Values } from './values.js';

const text = new TextDecoder();

/** Values as encoding/json would hand them to the validator. */
function valuesToJson(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoFloat) return v.value;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(valuesToJson);
  if (v instanceof GoObject) return null;
  if (isMap(v)) return jsonObject(Object.keys(v).map((k) => [k, valuesToJson(v[k])] as const));
  return null;
}

/** The `- field: why` lines for one schema, or '' when the values satisfy it. */
function validateOne(schemaBytes: Uint8Array, values: Values): string {
  let schema: JsonValue;
  try {
    schema = JSON.parse(text.decode(schemaBytes)) as JsonValue;
  } catch (e) {
    return `- values.schema.json: invalid JSON: ${(e as Error).message}\n`;
  }
  try {
    const causes = new ValidatorV6(compileSchema(schema, { unknownSchemaDraft: 2020 })).validateRoot(
      valuesToJson(values),
    );
    return causes ? `${v6ErrorLines(causes)}\n` : '';
  } catch (e) {
    if (e instanceof SchemaCompileError) return `- values.schema.json: schema does not compile: ${e.message}\n`;
    if (e instanceof ValidationDepthError) return `- values.schema.json: ${e.message}\n`;
    if (e instanceof RangeError) return '- values.schema.json: validation nested too deeply\n';
    throw e;
  }
}

function collect(chart: Chart, values: Values): string {
  let out = '';
  if (chart.schema) {
    const lines = validateOne(chart.schema, values);
    if (lines !== '') out += `${chart.name}:\n${lines}`;
  }
  for (const sub of chart.dependencies) {
    const sv = values[sub.name];
    out += collect(sub, isMap(sv) ? sv : {});
  }
  return out;
}

/** Throws a ChartError (code HELM_SCHEMA) listing every chart whose schema the values break. */
export function validateValuesSchemas(chart: Chart, values: Values): void {
  const failures = collect(chart, values);
  if (failures !== '')
    throw new ChartError(
      `values don't meet the specifications of the schema(s) in the following chart(s):\n${failures}`,
      'HELM_SCHEMA',
    );
}
