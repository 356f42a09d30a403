/**
 * Schema namespaces (spec §4.1): OpenAPI v2/v3 documents and CRDs converted to
 * Cleat types. Definitions keep group and version (io.k8s.api.apps.v1.Deployment
 * → apps.v1.Deployment); a short name is added when one candidate is preferred
 * (GA > beta > alpha, then the higher version), and a tie leaves the short name
 * ambiguous (using it lists the candidates). CRD kinds are `<version>.<Kind>`,
 * nested objects are named after their path (v1.CertificateSpec), and the
 * short Kind points to the storage version. Conversion is lazy: each
 * definition is a NamedCell resolved on first use, so recursive schemas are
 * fine and every call builds fresh cells (refines stay in the importer's view).
 */
import { closestName } from './diagnostics.js';
import { T, union, type Field, type NamedCell, type Ty } from './types.js';

export interface SchemaNamespace {
  /** Qualified names (apps.v1.Deployment) → cells. */
  cells: Map<string, NamedCell>;
  /** Short names (Deployment) → qualified names. */
  short: Map<string, string>;
  /** Short names with several equally preferred candidates. */
  ambiguous: Map<string, string[]>;
}

type Json = unknown;
type Obj = Record<string, Json>;

const isObj = (x: Json): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Ranks a version: GA beats beta beats alpha, then higher numbers win. */
function versionRank(v: string | undefined): number[] {
  const m = v ? VERSION.exec(v) : null;
  if (!m) return [3, 0, 0];
  const stability = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
  return [stability, Number(m[1]), Number(m[3] ?? 0)];
}

function cmpRank(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** io.k8s.api.apps.v1.Deployment → { qualified: apps.v1.Deployment, version: v1 }. */
function qualifiedName(defName: string): { qualified: string; version?: string; short: string } {
  const parts = defName.split('.');
  const short = parts[parts.length - 1]!;
  const vi = parts.findIndex((p) => VERSION.test(p));
  if (vi > 0) return { qualified: parts.slice(vi - 1).join('.'), version: parts[vi]!, short };
  return { qualified: parts.slice(-2).join('.'), short };
}

/** Looks a dotted name up: a qualified name, or an unambiguous short name. */
export function lookupSchemaType(ns: SchemaNamespace, path: string[]): NamedCell | string {
  const name = path.join('.');
  const cell = ns.cells.get(name) ?? (path.length === 1 ? ns.cells.get(ns.short.get(name) ?? '') : undefined);
  if (cell) return cell;
  const amb = ns.ambiguous.get(name);
  if (amb) return `\`${name}\` is ambiguous: use one of ${amb.map((a) => `\`${a}\``).join(', ')}`;
  const guess = closestName(name, [...ns.short.keys(), ...ns.cells.keys()]);
  return `no type \`${name}\` in the schema${guess ? `; did you mean \`${guess}\`?` : ''}`;
}

/** Builds the namespace of an OpenAPI v2/v3 document, or of one or more CRDs. */
export function schemaNamespace(docs: Json[]): SchemaNamespace | string {
  const ns: SchemaNamespace = { cells: new Map(), short: new Map(), ambiguous: new Map() };
  const crds = docs
    .flatMap((d) => (isObj(d) && d.kind === 'List' && Array.isArray(d.items) ? d.items : [d]))
    .filter((d) => isObj(d) && d.kind === 'CustomResourceDefinition');
  if (crds.length > 0) {
    for (const crd of crds) addCrd(ns, crd as Obj);
    return ns;
  }
  const doc = docs[0];
  if (docs.length !== 1 || !isObj(doc)) return 'not an OpenAPI document or CustomResourceDefinition';
  const defs = isObj(doc.definitions)
    ? doc.definitions
    : isObj(doc.components) && isObj(doc.components.schemas)
      ? doc.components.schemas
      : undefined;
  if (!defs) return 'not an OpenAPI document: no `definitions` or `components.schemas`';
  const byDef = new Map<string, NamedCell>();
  const candidates = new Map<string, { qualified: string; rank: number[] }[]>();
  for (const [defName, schema] of Object.entries(defs)) {
    const { qualified, version, short } = qualifiedName(defName);
    const cell: NamedCell = { name: qualified };
    if (isObj(schema) && typeof schema.description === 'string') cell.doc = schema.description;
    // Quantity is a string in the schema but accepts numbers on the wire (`cpu: 0.5`).
    if (qualified === 'resource.Quantity') cell.ty = union([T.str, T.float]);
    else cell.resolve = () => definitionType(schema, (ref) => byDef.get(ref));
    byDef.set(defName, cell);
    ns.cells.set(qualified, cell);
    const list = candidates.get(short) ?? [];
    list.push({ qualified, rank: versionRank(version) });
    candidates.set(short, list);
  }
  for (const [short, list] of candidates) {
    list.sort((a, b) => cmpRank(b.rank, a.rank));
    const best = list.filter((c) => cmpRank(c.rank, list[0]!.rank) === 0);
    if (best.length === 1) ns.short.set(short, best[0]!.qualified);
    else ns.ambiguous.set(short, best.map((c) => c.qualified).sort());
  }
  return ns;
}

/** A top-level definition: like any schema, plus literal apiVersion/kind from its single GVK. */
function definitionType(schema: Json, ref: (name: string) => NamedCell | undefined): Ty {
  const t = schemaType(schema, ref, undefined);
  const gvks = isObj(schema) ? schema['x-kubernetes-group-version-kind'] : undefined;
  if (t.k === 'record' && Array.isArray(gvks) && gvks.length === 1 && isObj(gvks[0])) {
    const g = gvks[0];
    const apiVersion = g.group ? `${String(g.group)}/${String(g.version)}` : String(g.version);
    return {
      ...t,
      fields: t.fields.map((f) => {
        if (f.name === 'apiVersion') return { ...f, type: T.lit(apiVersion), optional: false };
        if (f.name === 'kind') return { ...f, type: T.lit(String(g.kind)), optional: false };
        return f;
      }),
    };
  }
  return t;
}

type Namer = ((path: string) => NamedCell) | undefined;

/** One JSON schema → type. `nest` names nested object types (CRDs only). */
function schemaType(s: Json, ref: (name: string) => NamedCell | undefined, nest: Namer, path = ''): Ty {
  if (!isObj(s)) return T.json;
  if (typeof s.$ref === 'string') {
    const cell = ref(s.$ref.replace(/^#\/(definitions|components\/schemas)\//, ''));
    return cell ? { k: 'named', cell } : T.json;
  }
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return schemaType(s.allOf[0], ref, nest, path);
  if (s['x-kubernetes-int-or-string'] === true || s.format === 'int-or-string') return union([T.int, T.str]);
  if (s['x-kubernetes-preserve-unknown-fields'] === true && !isObj(s.properties)) return T.json;
  let t: Ty;
  switch (s.type) {
    case 'string':
      t =
        Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((e) => typeof e === 'string')
          ? union(s.enum.map((e) => T.lit(e)))
          : T.str;
      break;
    case 'integer':
      t = T.int;
      break;
    case 'number':
      t = T.float;
      break;
    case 'boolean':
      t = T.bool;
      break;
    case 'array':
      t = T.list(schemaType(s.items, ref, nest, path));
      break;
    case 'object':
    case undefined: {
      if (!isObj(s.properties)) {
        if (isObj(s.additionalProperties)) {
          t = T.map(schemaType(s.additionalProperties, ref, nest, path));
          break;
        }
        t = s.type === 'object' ? T.map(T.json) : T.json;
        break;
      }
      if (nest && path) {
        const cell = nest(path);
        const captured = s;
        cell.ty = objectType(captured, ref, nest, path); // CRD schemas are trees: build eagerly so every nested name exists
        if (typeof s.description === 'string') cell.doc = s.description;
        t = { k: 'named', cell };
      } else t = objectType(s, ref, nest, path);
      break;
    }
    default:
      t = T.json;
  }
  return s.nullable === true ? union([t, T.null]) : t;
}

function objectType(s: Obj, ref: (name: string) => NamedCell | undefined, nest: Namer, path: string): Ty {
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : [],
  );
  const fields: Field[] = [];
  for (const [name, ps] of Object.entries(s.properties as Obj)) {
    const f: Field = {
      name,
      type: schemaType(ps, ref, nest, `${path}${name[0]!.toUpperCase()}${name.slice(1)}`),
      optional: !required.has(name),
    };
    if (isObj(ps) && typeof ps.description === 'string') f.doc = ps.description;
    fields.push(f);
  }
  const open = s['x-kubernetes-preserve-unknown-fields'] === true || s.additionalProperties === true;
  return T.record(fields, open);
}

function addCrd(ns: SchemaNamespace, crd: Obj): void {
  const spec = isObj(crd.spec) ? crd.spec : {};
  const names = isObj(spec.names) ? spec.names : {};
  const kind = String(names.kind ?? 'Unknown');
  const group = String(spec.group ?? '');
  const versions = Array.isArray(spec.versions) ? spec.versions.filter(isObj) : [];
  for (const v of versions) {
    const version = String(v.name);
    const schema = isObj(v.schema)
      ? v.schema.openAPIV3Schema
      : isObj(spec.validation)
        ? spec.validation.openAPIV3Schema
        : undefined;
    const nest: Namer = (path) => {
      const name = `${version}.${kind}${path}`;
      const cell: NamedCell = { name };
      ns.cells.set(name, cell);
      return cell;
    };
    const rootName = `${version}.${kind}`;
    const root: NamedCell = { name: rootName };
    ns.cells.set(rootName, root);
    const apiVersion = group ? `${group}/${version}` : version;
    root.resolve = () => {
      const t =
        isObj(schema) && isObj(schema.properties) ? objectType(schema, () => undefined, nest, '') : T.record([], true);
      if (t.k !== 'record') return t;
      const rest = t.fields.filter((f) => f.name !== 'apiVersion' && f.name !== 'kind' && f.name !== 'metadata');
      return T.record(
        [
          { name: 'apiVersion', type: T.lit(apiVersion), optional: false },
          { name: 'kind', type: T.lit(kind), optional: false },
          {
            name: 'metadata',
            type: ns.cells.has('meta.v1.ObjectMeta')
              ? { k: 'named', cell: ns.cells.get('meta.v1.ObjectMeta')! }
              : T.map(T.json),
            optional: true,
          },
          ...rest,
        ],
        t.open,
      );
    };
    // Nested cells are created while the root resolves; touch it now so they exist for lookups.
    if (root.resolve) {
      const r = root.resolve;
      delete root.resolve;
      root.ty = r();
    }
    if (v.storage === true || versions.length === 1) ns.short.set(kind, rootName);
  }
  void group;
}
