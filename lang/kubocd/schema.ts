/**
 * Package schemas for the parameters and the context: the KuboCD short form
 * (`required: true` on a property, type inferred from `properties`/`items`)
 * or a JSON schema (`$schema` present), validated with a small JSON-schema
 * subset and used to fill defaults. Messages give the path of the value made
 * of declared properties and list indexes only, and stop before a property
 * the schema does not declare (its name can come from the data); they never
 * quote a value.
 */

import { GoFloat } from '../gotemplate/index.js';
import { mapSet } from '../gotemplate/value.js';
import { compileGoRegexp, type GoRegexp } from '../go/regexp/go-regexp.js';
import { wellFormed } from '../common/well-formed.js';
import { KubocdError } from './errors.js';
import { deepCopy } from './template.js';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof GoFloat);
}

function get(o: Obj, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof GoFloat) return v.value;
  return undefined;
}

/** A schema node in normalized form. */
export interface SchemaNode {
  type?: string;
  properties?: Record<string, SchemaNode>;
  required: string[];
  additionalProperties: boolean;
  items?: SchemaNode;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

const TYPES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

/**
 * Normalizes a package schema. `additionalDefault` is what an object without
 * `additionalProperties` allows (false for parameters, true for the context).
 * Throws KubocdError (KUBOCD_MANIFEST) naming the schema path.
 */
export function normalizeSchema(
  raw: unknown,
  additionalDefault: boolean,
  path = '',
  isJsonSchema?: boolean,
): SchemaNode {
  if (!isObj(raw)) throw new KubocdError(`schema node '${path}' is not a map`, 'KUBOCD_MANIFEST');
  const json = isJsonSchema ?? get(raw, '$schema') !== undefined;
  let type = get(raw, 'type');
  if (type === undefined)
    type = get(raw, 'properties') !== undefined ? 'object' : get(raw, 'items') !== undefined ? 'array' : undefined;
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type)))
    throw new KubocdError(`schema node '${path}' has an unknown type`, 'KUBOCD_MANIFEST');
  if (type === undefined && !json) throw new KubocdError(`missing type for node '${path}'`, 'KUBOCD_MANIFEST');
  const node: SchemaNode = { required: [], additionalProperties: additionalDefault };
  if (type !== undefined) node.type = type;
  const ap = get(raw, 'additionalProperties');
  if (typeof ap === 'boolean') node.additionalProperties = ap;
  else if (json && ap === undefined) node.additionalProperties = true;
  const props = get(raw, 'properties');
  if (props !== undefined) {
    if (!isObj(props)) throw new KubocdError(`invalid 'properties' for node '${path}'`, 'KUBOCD_MANIFEST');
    node.properties = {};
    for (const k of Object.keys(props)) {
      const child = props[k];
      const sub = normalizeSchema(
        child,
        node.additionalProperties && !json ? true : additionalDefault,
        `${path}.${k}`,
        json,
      );
      mapSet(node.properties, k, sub);
      if (!json && isObj(child) && get(child, 'required') === true) node.required.push(k);
    }
  }
  const req = get(raw, 'required');
  if (json && Array.isArray(req)) node.required.push(...req.filter((x): x is string => typeof x === 'string'));
  const items = get(raw, 'items');
  if (items !== undefined) node.items = normalizeSchema(items, additionalDefault, `${path}.[]`, json);
  const en = get(raw, 'enum');
  if (Array.isArray(en)) node.enum = en;
  if (get(raw, 'default') !== undefined) node.default = get(raw, 'default');
  for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    const v = num(get(raw, k));
    if (v !== undefined) node[k] = v;
  }
  const pat = get(raw, 'pattern');
  if (typeof pat === 'string') node.pattern = pat;
  return node;
}

/** A copy of `value` with the schema defaults filled in where values are absent. */
export function applyDefaults(node: SchemaNode, value: unknown): unknown {
  if (value === undefined || value === null) {
    if (node.default !== undefined) return deepCopy(node.default);
    if (node.properties && hasNestedDefault(node)) value = {};
    else return value;
  }
  if (isObj(value) && node.properties) {
    const out = { ...value };
    for (const k of Object.keys(node.properties)) {
      const v = applyDefaults(node.properties[k]!, get(out, k));
      if (v !== undefined && v !== null) mapSet(out, k, v);
    }
    return out;
  }
  if (Array.isArray(value) && node.items) return value.map((x) => applyDefaults(node.items!, x));
  return value;
}

function hasNestedDefault(node: SchemaNode): boolean {
  if (!node.properties) return false;
  return Object.values(node.properties).some((p) => p.default !== undefined || hasNestedDefault(p));
}

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return (num(v) !== undefined && Number.isInteger(num(v))) || typeof v === 'bigint';
    case 'number':
      return num(v) !== undefined || typeof v === 'bigint';
    case 'object':
      return isObj(v);
    case 'array':
      return Array.isArray(v);
  }
  return true;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (num(a) !== undefined && num(b) !== undefined) return num(a) === num(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => deepEqual(a[k], get(b, k)));
  }
  return a === b;
}

/** Validates `value`; returns the first problem as `PATH: reason` (PATH is `(root)` at the top), or undefined. */
export function validateSchema(node: SchemaNode, value: unknown, path = ''): string | undefined {
  const at = path === '' ? '(root)' : path;
  if (value === undefined || value === null)
    return node.type ? `${at}: a value is missing, expected ${node.type}` : undefined;
  if (node.type && !typeOk(node.type, value)) return `${at}: the value has the wrong type, expected ${node.type}`;
  if (node.enum && !node.enum.some((e) => deepEqual(e, value)))
    return `${at}: the value is not one of the allowed values`;
  const n = num(value);
  if (n !== undefined) {
    if (node.minimum !== undefined && n < node.minimum) return `${at}: the value is less than the minimum`;
    if (node.maximum !== undefined && n > node.maximum) return `${at}: the value is greater than the maximum`;
  }
  if (typeof value === 'string') {
    const len = Array.from(value).length;
    if (node.minLength !== undefined && len < node.minLength)
      return `${at}: the string is shorter than the minimum length`;
    if (node.maxLength !== undefined && len > node.maxLength)
      return `${at}: the string is longer than the maximum length`;
    if (node.pattern !== undefined) {
      let re: GoRegexp | undefined;
      try {
        re = compileGoRegexp(node.pattern);
      } catch {
        return `${at}: the schema pattern is not a valid regular expression`;
      }
      if (!re.test(wellFormed(value))) return `${at}: the string does not match the pattern`;
    }
  }
  if (Array.isArray(value)) {
    if (node.minItems !== undefined && value.length < node.minItems)
      return `${at}: the list has fewer items than the minimum`;
    if (node.maxItems !== undefined && value.length > node.maxItems)
      return `${at}: the list has more items than the maximum`;
    if (node.items)
      for (let i = 0; i < value.length; i++) {
        const err = validateSchema(node.items, value[i], path === '' ? String(i) : `${path}.${i}`);
        if (err) return err;
      }
  }
  if (isObj(value)) {
    const props = node.properties ?? {};
    for (const k of node.required)
      if (get(value, k) === undefined || get(value, k) === null)
        return `${path === '' ? k : `${path}.${k}`}: the property is required`;
    for (const k of Object.keys(value).sort()) {
      const sub = Object.prototype.hasOwnProperty.call(props, k) ? props[k] : undefined;
      if (!sub) {
        if (!node.additionalProperties) return `${at}: a property is not declared in the schema`;
        continue;
      }
      const err = validateSchema(sub, value[k], path === '' ? k : `${path}.${k}`);
      if (err) return err;
    }
  }
  return undefined;
}
