/**
 * Checks one object against its kind's OpenAPI v2 schema the way kubectl's
 * client-side validation reports problems: unknown fields, missing required
 * fields and wrong types, each with the field path, e.g.
 * `ValidationError(v1.Deployment.spec.replicas): invalid type for
 * io.k8s.api.apps.v1.DeploymentSpec.replicas: got "string", expected "integer"`.
 * Invariants: pure; `null` values are accepted anywhere (they mean "unset");
 * int-or-string fields take either; Quantity fields also take numbers;
 * schemas without properties (RawExtension, preserve-unknown-fields) accept
 * anything; recursion is bounded by the object's own depth; fields are
 * visited in code-point order so the problem list is deterministic.
 */
import { isJsonObject, sortedKeys, type JsonValue } from '../lang/common/json.js';
import type { OpenApiSchema, SchemaNode } from './openapi-schema.js';

export interface SchemaProblem {
  /** Field path from `VERSION.KIND`, e.g. `v1.Deployment.spec.template.spec.containers[0]`. */
  readonly path: string;
  readonly message: string;
}

/** `kindName` starts paths (`v1.Deployment`, as kubecfg's ValidateModel call); `definitionName` names the root type in messages. */
export function validateAgainstSchema(
  schema: OpenApiSchema,
  kindName: string,
  definitionName: string,
  kindSchema: SchemaNode,
  obj: JsonValue,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  walk(schema, kindSchema, obj, kindName, definitionName, problems);
  return problems;
}

function walk(
  schema: OpenApiSchema,
  node: SchemaNode,
  value: JsonValue,
  path: string,
  typeName: string,
  out: SchemaProblem[],
): void {
  if (value === null) return;
  const name = refName(node) ?? typeName;
  const s = schema.resolve(node);
  if (s === undefined || s['x-kubernetes-preserve-unknown-fields'] === true) return;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.properties !== undefined || (type === 'object' && s.additionalProperties !== undefined)) {
    if (!isJsonObject(value)) {
      out.push({ path, message: `invalid type for ${name}: got "${goType(value)}", expected "map"` });
      return;
    }
    for (const req of s.required ?? []) {
      if (!Object.hasOwn(value, req)) out.push({ path, message: `missing required field "${req}" in ${name}` });
    }
    for (const key of sortedKeys(value)) {
      const child = value[key]!;
      const prop = s.properties !== undefined && Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
      if (prop !== undefined) {
        walk(schema, prop, child, `${path}.${key}`, `${name}.${key}`, out);
      } else if (typeof s.additionalProperties === 'object') {
        // kube-openapi parses a map's value schema under the map's own path, so messages name the map.
        walk(schema, s.additionalProperties, child, `${path}.${key}`, name, out);
      } else if (s.additionalProperties !== true && s.properties !== undefined) {
        out.push({ path, message: `unknown field "${key}" in ${name}` });
      }
    }
    return;
  }
  if (type === 'array') {
    if (!Array.isArray(value)) {
      out.push({ path, message: `invalid type for ${name}: got "${goType(value)}", expected "array"` });
      return;
    }
    if (s.items !== undefined) value.forEach((item, i) => walk(schema, s.items!, item, `${path}[${i}]`, name, out));
    return;
  }
  if (type === undefined || type === 'object') return;
  if (!primitiveMatches(s, type, value, name)) {
    out.push({ path, message: `invalid type for ${name}: got "${goType(value)}", expected "${type}"` });
  }
}

function primitiveMatches(s: SchemaNode, type: string, value: JsonValue, name: string): boolean {
  if (s.format === 'int-or-string' || s['x-kubernetes-int-or-string'] === true)
    return typeof value === 'string' || Number.isInteger(value);
  switch (type) {
    case 'string':
      // Quantities are commonly written as numbers (cpu: 1) and the server accepts them.
      return typeof value === 'string' || (typeof value === 'number' && name.endsWith('resource.Quantity'));
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function refName(node: SchemaNode): string | undefined {
  return node.$ref?.replace(/^#\/definitions\//, '');
}

function goType(v: JsonValue): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (Array.isArray(v)) return 'array';
  return 'map';
}
