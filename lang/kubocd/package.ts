/**
 * A KuboCD Package manifest (apiVersion v1alpha1, as kubocd/kubocd reads
 * it): checked, defaulted, and every template field compiled with the
 * templateHeader in front, in the order KuboCD parses them (modules' fields,
 * then description, roles, dependencies, usage). An absent field is an empty
 * template without the header, as KuboCD does; a map or list field is
 * written as YAML (sorted keys) and parsed as a template. `${...}` is never
 * substituted. Errors name the module and the field.
 */

import { marshalYaml } from '../gotemplate/index.js';
import { compareCodepoints } from '../common/json.js';
import { KubocdError } from './errors.js';
import type { DnsPolicy } from './functions.js';
import { normalizeSchema, type SchemaNode } from './schema.js';
import { KubocdTemplate } from './template.js';
import { parseYaml } from './yaml.js';

type Obj = Record<string, unknown>;

/** The template fields of a module, in KuboCD's parse and render order. */
const MODULE_FIELDS = [
  'parameters',
  'values',
  'specPatch',
  'timeout',
  'targetNamespace',
  'enabled',
  'dependsOn',
  'onFailureStrategy',
] as const;
export type ModuleField = (typeof MODULE_FIELDS)[number];

/** How a rendered field is read. */
export type FieldKind = 'map' | 'text' | 'line' | 'bool' | 'list' | 'duration';

const MODULE_FIELD_KINDS: Record<ModuleField, FieldKind> = {
  parameters: 'map',
  values: 'map',
  specPatch: 'map',
  timeout: 'duration',
  targetNamespace: 'line',
  enabled: 'bool',
  dependsOn: 'list',
  onFailureStrategy: 'line',
};

/** A template field: its source (after defaulting) and the header it runs with. */
export interface TemplateField {
  /** Text parsed as the field (header excluded). */
  text: string;
  /** The templateHeader placed before it ('' for an absent field). */
  header: string;
}

export interface PackageModule {
  name: string;
  type: string;
  source: Obj;
  fields: Record<ModuleField, TemplateField>;
}

export interface KubocdPackage {
  name: string;
  tag: string;
  protected: boolean;
  templateHeader: string;
  parametersSchema: SchemaNode;
  contextSchema?: SchemaNode;
  modules: PackageModule[];
  /** Package-level fields, in render order: usage[KEY] (sorted), roles, dependencies, description. */
  fields: { place: string; kind: FieldKind; field: TemplateField }[];
  /** The manifest as read (Go data), for model.yaml and dumps. */
  manifest: Obj;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function get(o: Obj, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function str(o: Obj, k: string): string {
  const v = get(o, k);
  return typeof v === 'string' ? v : '';
}

/** KuboCD's NewFromAny: absent → empty without header; string as is; map/list as YAML. */
function fieldOf(v: unknown, header: string, place: string): TemplateField {
  if (v === undefined || v === null) return { text: '', header: '' };
  if (typeof v === 'string') return { text: v, header };
  if (isObj(v) || Array.isArray(v)) return { text: marshalYaml(v), header };
  throw new KubocdError(`${place}: invalid template object type`, 'KUBOCD_MANIFEST');
}

function stringField(v: unknown, dflt: string, header: string, place: string): TemplateField {
  if (v === undefined || v === null || v === '') return { text: dflt, header };
  if (typeof v !== 'string') throw new KubocdError(`${place}: the value must be a string`, 'KUBOCD_MANIFEST');
  return { text: v, header };
}

const NO_PARAMETERS: SchemaNode = { type: 'object', properties: {}, required: [], additionalProperties: false };

/**
 * Reads and checks a Package manifest without compiling its templates.
 * Throws KubocdError: YAML problems with the spec's messages, shape problems naming the field.
 */
export function readPackageManifest(text: string): KubocdPackage {
  const doc = parseYaml(text, 'the YAML document');
  if (!isObj(doc)) throw new KubocdError('the package manifest is not a map', 'KUBOCD_MANIFEST');
  if (get(doc, 'apiVersion') !== 'v1alpha1') throw new KubocdError("'apiVersion' must be v1alpha1", 'KUBOCD_MANIFEST');
  const type = get(doc, 'type');
  if (type !== undefined && type !== 'Package') throw new KubocdError("'type' must be Package", 'KUBOCD_MANIFEST');
  const name = str(doc, 'name');
  const tag = str(doc, 'tag');
  if (!name || !tag) throw new KubocdError("'name' and 'tag' must be set", 'KUBOCD_MANIFEST');
  if (!/^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$/.test(name))
    throw new KubocdError(
      "invalid 'name'. Must contain only alphanumeric characters, dashes and underscores",
      'KUBOCD_MANIFEST',
    );
  const header = get(doc, 'templateHeader') ?? '';
  if (typeof header !== 'string') throw new KubocdError("'templateHeader' must be a string", 'KUBOCD_MANIFEST');
  const schema = get(doc, 'schema');
  let parametersSchema = NO_PARAMETERS;
  let contextSchema: SchemaNode | undefined;
  if (schema !== undefined && schema !== null) {
    if (!isObj(schema)) throw new KubocdError("'schema' must be a map", 'KUBOCD_MANIFEST');
    const p = get(schema, 'parameters');
    const c = get(schema, 'context');
    try {
      if (isObj(p) && Object.keys(p).length > 0) parametersSchema = normalizeSchema(p, false);
    } catch (e) {
      if (e instanceof KubocdError) throw e.within("invalid 'schema.parameters'");
      throw e;
    }
    try {
      if (isObj(c) && Object.keys(c).length > 0) contextSchema = normalizeSchema(c, true);
    } catch (e) {
      if (e instanceof KubocdError) throw e.within("invalid 'schema.context'");
      throw e;
    }
  }
  const rawModules = get(doc, 'modules');
  if (!Array.isArray(rawModules) || rawModules.length === 0)
    throw new KubocdError('a package must have at least one module', 'KUBOCD_MANIFEST');
  const modules: PackageModule[] = [];
  const seen = new Set<string>();
  rawModules.forEach((m, idx) => {
    if (!isObj(m)) throw new KubocdError(`modules[${idx}]: a module must be a map`, 'KUBOCD_MANIFEST');
    const mname = str(m, 'name') || `module${String(idx).padStart(2, '0')}`;
    const place = `module '${mname}'`;
    const mtype = str(m, 'type') || 'HelmChart';
    if (mtype !== 'HelmChart' && mtype !== 'Package')
      throw new KubocdError(`${place}: 'type' must be HelmChart or Package`, 'KUBOCD_MANIFEST');
    const source = get(m, 'source');
    if (!isObj(source)) throw new KubocdError(`${place}: 'source' must be set`, 'KUBOCD_MANIFEST');
    const kinds = ['helmRepository', 'oci', 'git', 'local'].filter((k) => get(source, k) !== undefined);
    if (kinds.length !== 1)
      throw new KubocdError(
        `${place}: one and only one of 'helmRepository', 'git', 'local' and 'oci' should be set`,
        'KUBOCD_MANIFEST',
      );
    if (mtype === 'Package' && get(m, 'values') !== undefined)
      throw new KubocdError(`${place}: 'values' should not be defined for 'type.Package'`, 'KUBOCD_MANIFEST');
    if (mtype === 'HelmChart' && get(m, 'parameters') !== undefined)
      throw new KubocdError(`${place}: 'parameters' should not be defined for 'type.HelmChart'`, 'KUBOCD_MANIFEST');
    if (seen.has(mname)) throw new KubocdError(`duplicate module name: ${mname}`, 'KUBOCD_MANIFEST');
    seen.add(mname);
    const f = (k: string) => `${place}: '${k}'`;
    const dependsOn = get(m, 'dependsOn') ?? [];
    modules.push({
      name: mname,
      type: mtype,
      source,
      fields: {
        parameters: fieldOf(get(m, 'parameters'), header, f('parameters')),
        values: fieldOf(get(m, 'values'), header, f('values')),
        specPatch: fieldOf(get(m, 'specPatch'), header, f('specPatch')),
        timeout: stringField(get(m, 'timeout'), '2m0s', header, f('timeout')),
        targetNamespace: stringField(
          get(m, 'targetNamespace'),
          '{{.Release.spec.targetNamespace}}',
          header,
          f('targetNamespace'),
        ),
        enabled: stringField(get(m, 'enabled'), 'true', header, f('enabled')),
        dependsOn: fieldOf(dependsOn, header, f('dependsOn')),
        onFailureStrategy: {
          text: typeof get(m, 'onFailureStrategy') === 'string' ? str(m, 'onFailureStrategy') : '',
          header,
        },
      },
    });
  });
  const fields: KubocdPackage['fields'] = [];
  const usage = get(doc, 'usage');
  if (isObj(usage))
    for (const k of Object.keys(usage).sort(compareCodepoints))
      fields.push({
        place: `usage[${k}]`,
        kind: 'text',
        field: stringField(get(usage, k), '', header, `'usage[${k}]'`),
      });
  fields.push({ place: 'roles', kind: 'list', field: fieldOf(get(doc, 'roles') ?? [], header, "'roles'") });
  fields.push({
    place: 'dependencies',
    kind: 'list',
    field: fieldOf(get(doc, 'dependencies') ?? [], header, "'dependencies'"),
  });
  const description = get(doc, 'description');
  fields.push({
    place: 'description',
    kind: 'text',
    field: { text: typeof description === 'string' ? description : '', header },
  });
  return {
    name,
    tag,
    protected: get(doc, 'protected') === true,
    templateHeader: header,
    parametersSchema,
    ...(contextSchema ? { contextSchema } : {}),
    modules,
    fields,
    manifest: doc,
  };
}

/** Every template of a package, in KuboCD's parse order, with its place in messages. */
export function packageTemplates(
  pkg: KubocdPackage,
): { module?: string; field: string; kind: FieldKind; source: TemplateField }[] {
  const out: { module?: string; field: string; kind: FieldKind; source: TemplateField }[] = [];
  for (const m of pkg.modules)
    for (const f of MODULE_FIELDS)
      out.push({ module: m.name, field: f, kind: MODULE_FIELD_KINDS[f], source: m.fields[f] });
  for (const f of pkg.fields) out.push({ field: f.place, kind: f.kind, source: f.field });
  return out;
}

/** The `module 'main': ` prefix of a template's messages ('' for package-level fields). */
export function placePrefix(module: string | undefined): string {
  return module === undefined ? '' : `module '${module}': `;
}

/** A package with all its templates compiled. */
export interface CompiledPackage {
  pkg: KubocdPackage;
  /** Same order as packageTemplates(pkg). */
  templates: { module?: string; field: string; kind: FieldKind; template: KubocdTemplate }[];
}

/**
 * Reads a Package manifest and parses every template, as `kubocd package` and the controller do.
 * Throws KubocdError: `module 'main': could not parse 'values' template: template: :2: function "now" not defined`.
 */
export function loadPackage(text: string, dns?: DnsPolicy): CompiledPackage {
  const pkg = readPackageManifest(text);
  const templates: CompiledPackage['templates'] = [];
  for (const t of packageTemplates(pkg)) {
    try {
      const template = KubocdTemplate.compile(t.source.text, t.source.header, {
        packageTemplate: true,
        ...(dns ? { dns } : {}),
      });
      templates.push({
        ...(t.module !== undefined ? { module: t.module } : {}),
        field: t.field,
        kind: t.kind,
        template,
      });
    } catch (e) {
      if (e instanceof KubocdError) throw e.within(`${placePrefix(t.module)}could not parse '${t.field}' template`);
      throw e;
    }
  }
  return { pkg, templates };
}
