/**
 * ytt data-values schemas: the type a `#@data/values-schema` document
 * declares (inferred from its values, `#@schema/nullable`, `#@schema/type
 * any=True`, `#@schema/default`), its default data values, the type check
 * after each overlay (which also fills defaults into new map items and array
 * elements), and the `#@schema/validation` rules.
 */
import { YttError, type Where } from './errors.js';
import {
  SFloat,
  YArray,
  YArrayItem,
  YDoc,
  YMap,
  YMapItem,
  deepCopy,
  typeName,
  type Annotation,
  type NodeMeta,
  type YScalar,
  type YValue,
} from './nodes.js';
import { callStarlark } from './starlark/builtins.js';
import { repr } from './starlark/values.js';

export interface SchemaDocs {
  title?: string;
  description?: string;
  deprecated?: string | true;
  examples?: [string, YValue][];
}

/** A `#@schema/validation`: the built-in keyword rules, the custom (message, lambda) rules, and what ytt does not model. */
export interface Validation {
  minLen?: number;
  maxLen?: number;
  min?: YScalar;
  max?: YScalar;
  oneOf?: YValue[];
  notNull?: boolean;
  /** (message, function) pairs: the custom rules */
  rules: { message: string; fn: unknown }[];
  /** keyword arguments other than the rules above (when=, one_not_null=, ...) */
  otherKwargs: string[];
  /** the annotation's source text (not_null=True is read from it by the converter) */
  text: string;
  where: Where;
}

interface Base {
  where: Where;
  docs: SchemaDocs;
  validation?: Validation;
  /** comments written above the schema node */
  comments: NodeMeta['comments'];
}
export type SchemaType =
  | (Base & { kind: 'map'; items: { key: YScalar; type: SchemaType; where: Where }[] })
  | (Base & { kind: 'array'; item: SchemaType; default: YValue })
  | (Base & { kind: 'scalar'; scalar: 'string' | 'integer' | 'float' | 'boolean'; default: YScalar })
  | (Base & { kind: 'null'; inner: SchemaType })
  | (Base & { kind: 'any'; default: YValue });

export class SchemaError extends Error {
  constructor(
    readonly title: string,
    readonly violations: SchemaViolation[],
  ) {
    super(title);
  }
}
export interface SchemaViolation {
  where: Where;
  found: string;
  expected: string;
  hints: string[];
}

function annOf(meta: NodeMeta, name: string): Annotation | undefined {
  return meta.anns.find((a) => a.name === name);
}

function docsOf(meta: NodeMeta): SchemaDocs {
  const d: SchemaDocs = {};
  const t = annOf(meta, 'schema/title');
  if (t) d.title = String(t.args[0] ?? '');
  const de = annOf(meta, 'schema/desc');
  if (de) d.description = String(de.args[0] ?? '');
  const dep = annOf(meta, 'schema/deprecated');
  if (dep) d.deprecated = typeof dep.args[0] === 'string' ? dep.args[0] : true;
  return d;
}

function validationOf(meta: NodeMeta, toYaml: (v: unknown) => YValue): Validation | undefined {
  const a = annOf(meta, 'schema/validation');
  if (!a) return undefined;
  const v: Validation = { rules: [], otherKwargs: [], text: a.text, where: a.where };
  for (const arg of a.args) {
    const t = arg as { items?: unknown[] };
    if (!t || !Array.isArray(t.items) || t.items.length !== 2)
      throw new YttError(
        a.where,
        `expected annotation to have 2-tuple as argument(s), but found: ${repr(arg)} (by ${a.where.file}:${a.where.line})`,
      );
    v.rules.push({ message: String(t.items[0]), fn: t.items[1] });
  }
  for (const [k, val] of a.kwargs) {
    switch (k) {
      case 'min_len':
        v.minLen = val as number;
        break;
      case 'max_len':
        v.maxLen = val as number;
        break;
      case 'min':
        v.min = toYaml(val) as YScalar;
        break;
      case 'max':
        v.max = toYaml(val) as YScalar;
        break;
      case 'one_of': {
        const y = toYaml(val);
        v.oneOf = y instanceof YArray ? y.items.map((i) => i.value) : [];
        break;
      }
      case 'not_null':
        v.notNull = val === true;
        break;
      default:
        v.otherKwargs.push(k);
    }
  }
  return v;
}

/** The type a schema document declares. */
export function schemaFromDoc(doc: YDoc, toYaml: (v: unknown) => YValue): SchemaType {
  return typeOf(doc.value, doc.meta, toYaml);
}

function typeOf(value: YValue, meta: NodeMeta, toYaml: (v: unknown) => YValue): SchemaType {
  const base: Base = {
    where: meta.where,
    docs: docsOf(meta),
    validation: validationOf(meta, toYaml),
    comments: meta.comments,
  };
  const typeAnn = annOf(meta, 'schema/type');
  const nullable = annOf(meta, 'schema/nullable');
  const defAnn = annOf(meta, 'schema/default');
  let t: SchemaType;
  if (typeAnn && typeAnn.kwargs.some(([k, v]) => k === 'any' && v === true)) {
    t = { ...base, kind: 'any', default: deepCopy(value) };
  } else {
    t = inferType(value, meta, base, !!nullable, toYaml);
    if (nullable) t = { ...base, kind: 'null', inner: { ...t, validation: undefined } };
  }
  if (defAnn) {
    const d = toYaml(defAnn.args[0] ?? null);
    setDefault(t, d, defAnn.where);
  }
  return t;
}

function setDefault(t: SchemaType, d: YValue, where: Where): void {
  const violations = checkValue(d, t, where);
  if (violations.length) throw new SchemaError('Invalid schema - @schema/default not valid', violations);
  if (t.kind === 'array' || t.kind === 'any') t.default = d;
  else if (t.kind === 'scalar') t.default = d as YScalar;
  else if (t.kind === 'null') (t as SchemaType & { override?: YValue }).override = d;
  else if (t.kind === 'map') (t as SchemaType & { override?: YValue }).override = d;
}

function inferType(
  value: YValue,
  meta: NodeMeta,
  base: Base,
  nullable: boolean,
  toYaml: (v: unknown) => YValue,
): SchemaType {
  if (value instanceof YMap)
    return {
      ...base,
      kind: 'map',
      items: value.items.map((i) => ({ key: i.key, type: typeOf(i.value, i.meta, toYaml), where: i.meta.where })),
    };
  if (value instanceof YArray) {
    if (value.items.length !== 1)
      throw new SchemaError('Invalid schema - wrong number of items in array definition', [
        {
          where: meta.where,
          found: `${value.items.length} array items`,
          expected: 'exactly 1 array item, of the desired type',
          hints: [
            'in schema, the one item of the array implies the type of its elements.',
            'in schema, the default value for an array is always an empty list.',
            'default values can be overridden via a data values overlay.',
          ],
        },
      ]);
    const it = value.items[0]!;
    return { ...base, kind: 'array', item: typeOf(it.value, it.meta, toYaml), default: new YArray() };
  }
  if (value === null) {
    throw new SchemaError('Invalid schema - null value not allowed here', [
      {
        where: meta.where,
        found: 'null value',
        expected: 'non-null value',
        hints: [
          'in YAML, omitting a value implies null.',
          'to set the default value to null, annotate with @schema/nullable.',
          'to allow any value, annotate with @schema/type any=True.',
        ],
      },
    ]);
  }
  const scalar =
    typeof value === 'string'
      ? 'string'
      : typeof value === 'boolean'
        ? 'boolean'
        : value instanceof SFloat
          ? 'float'
          : 'integer';
  return { ...base, kind: 'scalar', scalar, default: value };
}

/** The default data values of a schema type. */
export function defaultOf(t: SchemaType): YValue {
  const override = (t as { override?: YValue }).override;
  if (override !== undefined) return deepCopy(override);
  switch (t.kind) {
    case 'map':
      return new YMap(
        t.items.map((i) => new YMapItem(i.key, defaultOf(i.type), { anns: [], comments: [], where: i.where })),
      );
    case 'array':
      return deepCopy(t.default);
    case 'scalar':
      return t.default;
    case 'null':
      return null;
    case 'any':
      return deepCopy(t.default);
  }
}

function describe(t: SchemaType): string {
  switch (t.kind) {
    case 'map':
      return 'map';
    case 'array':
      return 'array';
    case 'scalar':
      return t.scalar === 'float' ? 'float' : t.scalar;
    case 'null':
      return describe(t.inner);
    case 'any':
      return 'any';
  }
}

function checkValue(v: YValue, t: SchemaType, where: Where): SchemaViolation[] {
  const out: SchemaViolation[] = [];
  assign(v, t, where, out, false);
  return out;
}

/**
 * Types `v` against `t` in place: reports mismatches and undeclared keys,
 * and adds the defaults of declared keys a map lacks.
 */
function assign(v: YValue, t: SchemaType, where: Where, out: SchemaViolation[], fill: boolean): void {
  switch (t.kind) {
    case 'any':
      return;
    case 'null':
      if (v === null) return;
      return assign(v, t.inner, where, out, fill);
    case 'map': {
      if (!(v instanceof YMap)) {
        out.push(mismatch(v, t, where));
        return;
      }
      for (const item of v.items) {
        const it = t.items.find((x) => x.key === item.key);
        if (!it) {
          out.push({
            where: item.meta.where,
            found: String(item.key),
            expected: `a key declared in map (from ${t.where.file}:${t.where.line})`,
            hints: [],
            undeclared: true,
          } as SchemaViolation);
          continue;
        }
        assign(item.value, it.type, item.meta.where, out, fill);
      }
      if (fill)
        for (const it of t.items)
          if (!v.items.some((x) => x.key === it.key))
            v.items.push(new YMapItem(it.key, defaultOf(it.type), { anns: [], comments: [], where: it.where }));
      return;
    }
    case 'array':
      if (!(v instanceof YArray)) {
        out.push(mismatch(v, t, where));
        return;
      }
      for (const item of v.items) assign(item.value, t.item, item.meta.where, out, fill);
      return;
    case 'scalar': {
      const ok =
        (t.scalar === 'string' && typeof v === 'string') ||
        (t.scalar === 'boolean' && typeof v === 'boolean') ||
        (t.scalar === 'integer' && typeof v === 'number') ||
        (t.scalar === 'float' && (typeof v === 'number' || v instanceof SFloat));
      if (!ok) out.push(mismatch(v, t, where));
      return;
    }
  }
}

function mismatch(v: YValue, t: SchemaType, where: Where): SchemaViolation {
  return { where, found: typeName(v), expected: `${describe(t)} (by ${t.where.file}:${t.where.line})`, hints: [] };
}

/** ytt's AssignType after an overlay: type check, then fill defaults. Throws SchemaError listing every violation. */
export function typeCheck(doc: YDoc, t: SchemaType): void {
  const out: SchemaViolation[] = [];
  if (doc.value === null) doc.value = defaultOf(t);
  assign(doc.value, t, doc.meta.where, out, true);
  if (out.length) {
    const undeclared = out.every((x) => (x as { undeclared?: boolean }).undeclared);
    throw new SchemaError(
      'One or more data values were invalid',
      out.map(
        (x) => ({ ...x, title: undeclared ? 'Given data value is not declared in schema' : '' }) as SchemaViolation,
      ),
    );
  }
}

export interface Invalidation {
  path: string;
  from: Where;
  violations: { mustBe: string; by: Where; found: string }[];
}

/** Runs every `#@schema/validation` over the final values; returns ytt's invalidations. */
export function validate(
  values: YValue,
  t: SchemaType | undefined,
  toStarlark: (v: YValue) => unknown,
): Invalidation[] {
  const out: Invalidation[] = [];
  if (!t) return out;
  walkValidate(
    values,
    t,
    '',
    values instanceof YMap ? { file: '', line: 0, column: 0 } : { file: '', line: 0, column: 0 },
    out,
    toStarlark,
  );
  return out;
}

function fmtScalar(v: YValue): string {
  if (v instanceof SFloat) return String(v.v);
  if (typeof v === 'string') return v;
  if (v instanceof YArray)
    return '[' + v.items.map((i) => repr(i.value instanceof SFloat ? i.value : i.value)).join(', ') + ']';
  return String(v);
}

function lengthOf(v: YValue): number | undefined {
  if (typeof v === 'string') return [...v].length;
  if (v instanceof YMap || v instanceof YArray) return v.items.length;
  return undefined;
}

function num(v: YValue): number | string | undefined {
  if (typeof v === 'number') return v;
  if (v instanceof SFloat) return v.v;
  if (typeof v === 'string') return v;
  return undefined;
}

function valueEq(a: YValue, b: YValue): boolean {
  if (a instanceof SFloat) a = a.v;
  if (b instanceof SFloat) b = b.v;
  if (a instanceof YMap || a instanceof YArray || b instanceof YMap || b instanceof YArray)
    return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
  return a === b;
}
function plain(v: YValue): unknown {
  if (v instanceof YMap) return v.items.map((i) => [i.key, plain(i.value)]);
  if (v instanceof YArray) return v.items.map((i) => plain(i.value));
  return v instanceof SFloat ? v.v : v;
}

function runRules(
  v: YValue,
  val: Validation,
  toStarlark: (v: YValue) => unknown,
): { mustBe: string; by: Where; found: string }[] {
  const out: { mustBe: string; by: Where; found: string }[] = [];
  if (v === null && !val.notNull) return out;
  const add = (mustBe: string, found: string): void => {
    out.push({ mustBe, by: val.where, found });
  };
  if (val.notNull && v === null) {
    add('not null', 'value is null');
    return out;
  }
  for (const r of val.rules) {
    try {
      const res = callStarlark(r.fn, [toStarlark(v)], []);
      if (res !== true) add(r.message, '');
    } catch (e) {
      if (e instanceof YttError) add(r.message, e.reason.replace(/^fail: /, '').replace(/^check: /, ''));
      else throw e;
    }
  }
  const len = lengthOf(v);
  if (val.minLen !== undefined && len !== undefined && len < val.minLen)
    add(`length >= ${val.minLen}`, `length = ${len}`);
  if (val.maxLen !== undefined && len !== undefined && len > val.maxLen)
    add(`length <= ${val.maxLen}`, `length = ${len}`);
  const n = num(v);
  const lo = val.min !== undefined ? num(val.min) : undefined;
  const hi = val.max !== undefined ? num(val.max) : undefined;
  if (lo !== undefined && n !== undefined && n < lo)
    add(`a value >= ${fmtScalar(val.min!)}`, `value < ${fmtScalar(val.min!)}`);
  if (hi !== undefined && n !== undefined && n > hi)
    add(`a value <= ${fmtScalar(val.max!)}`, `value > ${fmtScalar(val.max!)}`);
  if (val.oneOf && !val.oneOf.some((o) => valueEq(o, v)))
    add(
      `one of ${fmtScalar(new YArray(val.oneOf.map((x) => new YArrayItem(x, { anns: [], comments: [], where: val.where }))))}`,
      'not one of allowed values',
    );
  return out;
}

function walkValidate(
  v: YValue,
  t: SchemaType,
  path: string,
  from: Where,
  out: Invalidation[],
  toStarlark: (v: YValue) => unknown,
): void {
  const val = t.kind === 'null' ? (t.validation ?? t.inner.validation) : t.validation;
  if (val) {
    const violations = runRules(v, val, toStarlark);
    if (violations.length) out.push({ path: path || `(${typeName(v)})`, from, violations });
  }
  const inner = t.kind === 'null' ? t.inner : t;
  if (inner.kind === 'map' && v instanceof YMap) {
    for (const item of v.items) {
      const it = inner.items.find((x) => x.key === item.key);
      if (it)
        walkValidate(
          item.value,
          it.type,
          path ? `${path}.${String(item.key)}` : String(item.key),
          item.meta.where,
          out,
          toStarlark,
        );
    }
  } else if (inner.kind === 'array' && v instanceof YArray) {
    v.items.forEach((item, i) =>
      walkValidate(item.value, inner.item, `${path}[${i}]`, item.meta.where, out, toStarlark),
    );
  }
}

/** Every `#@schema/validation` of a schema with the path it governs (`app.servers[].port`), in source order. */
export function validationsByPath(
  t: SchemaType | undefined,
): { path: string; validation: Validation; type: SchemaType }[] {
  const out: { path: string; validation: Validation; type: SchemaType }[] = [];
  const walk = (x: SchemaType, path: string): void => {
    const v = x.validation ?? (x.kind === 'null' ? x.inner.validation : undefined);
    if (v) out.push({ path, validation: v, type: x });
    const inner = x.kind === 'null' ? x.inner : x;
    if (inner.kind === 'map')
      for (const i of inner.items) walk(i.type, path ? `${path}.${String(i.key)}` : String(i.key));
    else if (inner.kind === 'array') walk(inner.item, `${path}[]`);
  };
  if (t) walk(t, '');
  return out;
}
