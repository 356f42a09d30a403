/**
 * Rendering a Release as `kubocd render` does, with every input in memory:
 * read the Release, Context and Config resources and the Package; build the
 * data model (.Release, .Context merged, .Parameters rendered from
 * Release.spec.parameters then merged with the package defaults and checked
 * against its schema, .ImageRedirects); emit model.yaml first; render the
 * package templates in KuboCD's order; build one HelmRelease per enabled
 * module; render each module's chart (when given) with lang/helm. Pure.
 * On failure the files produced so far are returned with the error, so
 * model.yaml is there to reproduce it.
 */

import { marshalYaml } from '../gotemplate/index.js';
import { renderTemplates, ChartError, type Chart } from '../helm/index.js';
import type { JsonValue } from '../common/json.js';
import { KubocdError } from './errors.js';
import type { DnsPolicy } from './functions.js';
import { durationString as formatGoDuration, parseGoDuration } from '../go/time.js';
import { type CompiledPackage, type FieldKind, loadPackage, placePrefix } from './package.js';
import { renderParameters } from './parameters.js';
import { collectImageRedirects, getKey, isObj, mergeContexts, mergeMaps, readRelease } from './resources.js';
import { applyDefaults, validateSchema } from './schema.js';
import { parseYaml, toJsonValue } from './yaml.js';

type Obj = Record<string, unknown>;

export interface ReleaseRenderInput {
  /** The Release manifest (YAML). */
  release: string;
  /** The Package manifest (YAML), e.g. `original.yaml` of a package image. */
  package: string;
  /** Texts holding Context resources, merged in this order (later wins). */
  contexts?: readonly string[];
  /** Texts holding Config resources (image redirects). */
  configs?: readonly string[];
  /** Charts by module name; a module without one gets its HelmRelease but no manifests. */
  charts?: ReadonlyMap<string, Chart>;
  /** resolveDNS policy (default: disabled by platform policy). */
  dns?: DnsPolicy;
  /** Capabilities.KubeVersion for the charts. */
  kubeVersion?: string;
}

export interface OutputFile {
  /** Relative path in the output directory, e.g. `model.yaml`, `helmReleases/demo-main.yaml`. */
  path: string;
  text: string;
}

export interface RenderedModule {
  name: string;
  enabled: boolean;
  targetNamespace: string;
  timeout: string;
  dependsOn: string[];
  onFailureStrategy: string;
  values: JsonValue;
  parameters: JsonValue;
  specPatch: JsonValue;
}

export interface ReleaseRenderResult {
  /** model.yaml first, then the HelmReleases, then the charts' manifests. Present even on error. */
  files: OutputFile[];
  /** The first failure, worded as the Release status shows it (without `error on rendering: `). */
  error?: KubocdError;
  model?: JsonValue;
  /** The rendered package-level fields: `usage[KEY]`, roles, dependencies, description. */
  packageFields?: JsonValue;
  modules?: RenderedModule[];
  helmReleases?: JsonValue[];
}

/** The fields of a Flux HelmRelease v2 spec: a specPatch may set these only. */
const HELM_RELEASE_SPEC_FIELDS = new Set([
  'chart',
  'chartRef',
  'commonMetadata',
  'dependsOn',
  'driftDetection',
  'install',
  'interval',
  'kubeConfig',
  'maxHistory',
  'persistentClient',
  'postRenderers',
  'releaseName',
  'rollback',
  'serviceAccountName',
  'storageNamespace',
  'suspend',
  'targetNamespace',
  'test',
  'timeout',
  'uninstall',
  'upgrade',
  'values',
  'valuesFrom',
]);

const BOOLS: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** A rendered text read as its field expects; messages never quote the text. */
function readAs(kind: FieldKind, text: string): unknown {
  switch (kind) {
    case 'text':
      return text;
    case 'line':
      return text.trim();
    case 'bool': {
      const b = BOOLS[text.trim()];
      if (b === undefined) throw new KubocdError('the rendered text is not a boolean', 'KUBOCD_MANIFEST');
      return b;
    }
    case 'duration': {
      const ns = parseGoDuration(text.trim());
      if (ns === undefined) throw new KubocdError('the rendered text is not a duration', 'KUBOCD_MANIFEST');
      return formatGoDuration(ns);
    }
    case 'map': {
      const v = parseYaml(text, 'the rendered text');
      if (v === null) return {};
      if (!isObj(v)) throw new KubocdError('the rendered text is not a map', 'KUBOCD_MANIFEST');
      return v;
    }
    case 'list': {
      const v = parseYaml(text, 'the rendered text');
      if (v === null) return [];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
        throw new KubocdError('the rendered text is not a list of strings', 'KUBOCD_MANIFEST');
      return v;
    }
  }
}

function yamlFile(path: string, v: unknown): OutputFile {
  return { path, text: marshalYaml(v) };
}

/** Builds the data model; throws KubocdError worded as the Release status shows it. */
function buildModel(input: ReleaseRenderInput, compiled: CompiledPackage): Obj {
  const release = readRelease(input.release);
  const context = mergeContexts(input.contexts ?? []);
  const pkg = compiled.pkg;
  if (pkg.contextSchema) {
    const withDefaults = applyDefaults(pkg.contextSchema, context) as Obj;
    const err = validateSchema(pkg.contextSchema, withDefaults);
    if (err)
      throw new KubocdError(`could not validate context: context schema validation error: ${err}`, 'KUBOCD_SCHEMA');
    Object.assign(context, withDefaults);
  }
  const imageRedirects = collectImageRedirects(input.configs ?? []);
  const rendered = renderParameters(getKey(release.spec, 'parameters'), {
    Release: release.object,
    Context: context,
    ImageRedirects: imageRedirects,
  });
  const parameters = applyDefaults(pkg.parametersSchema, rendered) as Obj;
  const err = validateSchema(pkg.parametersSchema, parameters);
  if (err)
    throw new KubocdError(`could not validate parameters: parameters schema validation error: ${err}`, 'KUBOCD_SCHEMA');
  return {
    Release: release.object,
    Context: context,
    Parameters: parameters,
    ImageRedirects: imageRedirects,
    Inputs: {},
    InputLists: {},
  };
}

/** Renders every template of the package; throws `module 'main': could not render 'values' template: ...`. */
function renderPackage(compiled: CompiledPackage, model: Obj): { byModule: Map<string, Obj>; packageFields: Obj } {
  const byModule = new Map<string, Obj>();
  const packageFields: Obj = {};
  // KuboCD renders the package-level fields (usage, roles, dependencies, description) before the modules.
  const ordered = [
    ...compiled.templates.filter((t) => t.module === undefined),
    ...compiled.templates.filter((t) => t.module !== undefined),
  ];
  for (const t of ordered) {
    let value: unknown;
    try {
      value = readAs(t.kind, t.template.render(model));
    } catch (e) {
      if (e instanceof KubocdError) throw e.within(`${placePrefix(t.module)}could not render '${t.field}' template`);
      throw e;
    }
    if (t.module !== undefined) {
      const m = byModule.get(t.module) ?? {};
      m[t.field] = value;
      byModule.set(t.module, m);
    } else packageFields[t.field] = value;
  }
  for (const [name, m] of byModule) {
    for (const dep of m['dependsOn'] as string[])
      if (!byModule.has(dep))
        throw new KubocdError(
          `module '${name}': dependsOn #${(m['dependsOn'] as string[]).indexOf(dep)}: module does not exist`,
          'KUBOCD_MANIFEST',
        );
  }
  return { byModule, packageFields };
}

function helmReleaseOf(
  releaseName: string,
  namespace: string,
  release: Obj,
  moduleName: string,
  m: Obj,
  chart: Chart | undefined,
  pkgTag: string,
): Obj {
  const hrName = `${releaseName}-${moduleName}`;
  const spec = getKey(release, 'spec') as Obj;
  const pkgRef = getKey(spec, 'package');
  const interval = isObj(pkgRef) && typeof getKey(pkgRef, 'interval') === 'string' ? getKey(pkgRef, 'interval') : '30m';
  let hrSpec: Obj = {
    chart: {
      spec: {
        chart: chart?.name ?? moduleName,
        version: chart?.metadata?.version ?? pkgTag,
        sourceRef: { kind: 'HelmRepository', name: releaseName, namespace },
        interval,
      },
    },
    values: m['values'],
    targetNamespace: m['targetNamespace'],
    releaseName: hrName,
    dependsOn: (m['dependsOn'] as string[]).map((d) => ({ name: `${releaseName}-${d}`, namespace })),
    timeout: m['timeout'],
    interval,
  };
  const patch = m['specPatch'] as Obj;
  for (const k of Object.keys(patch))
    if (!HELM_RELEASE_SPEC_FIELDS.has(k))
      throw new KubocdError(
        `failed to populate HelmRelease '${hrName}': specPatch of module '${moduleName}' has a field that HelmRelease does not define`,
        'KUBOCD_MANIFEST',
      );
  hrSpec = mergeMaps(hrSpec, patch);
  if (getKey(spec, 'createNamespace') === true) hrSpec = mergeMaps(hrSpec, { install: { createNamespace: true } });
  return {
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: hrName, namespace },
    spec: hrSpec,
  };
}

/** Renders a Release. Never throws for bad input: the error comes back with the files produced before it. */
export function renderRelease(input: ReleaseRenderInput): ReleaseRenderResult {
  const files: OutputFile[] = [];
  const result: ReleaseRenderResult = { files };
  try {
    const compiled = loadPackage(input.package, input.dns);
    const model = buildModel(input, compiled);
    result.model = toJsonValue(model);
    files.push(yamlFile('model.yaml', model));
    const { byModule, packageFields } = renderPackage(compiled, model);
    result.packageFields = toJsonValue(packageFields);
    const release = model['Release'] as Obj;
    const meta = getKey(release, 'metadata') as Obj;
    const releaseName = getKey(meta, 'name') as string;
    const namespace = getKey(meta, 'namespace') as string;
    const releaseEnabled = getKey(getKey(release, 'spec') as Obj, 'enabled') !== false;
    const modules: RenderedModule[] = [];
    const helmReleases: JsonValue[] = [];
    const manifests: OutputFile[] = [];
    for (const pm of compiled.pkg.modules) {
      const m = byModule.get(pm.name)!;
      const enabled = releaseEnabled && m['enabled'] === true;
      modules.push({
        name: pm.name,
        enabled,
        targetNamespace: m['targetNamespace'] as string,
        timeout: m['timeout'] as string,
        dependsOn: m['dependsOn'] as string[],
        onFailureStrategy: m['onFailureStrategy'] as string,
        values: toJsonValue(m['values']),
        parameters: toJsonValue(m['parameters']),
        specPatch: toJsonValue(m['specPatch']),
      });
      if (!enabled) continue;
      const chart = input.charts?.get(pm.name);
      const hr = helmReleaseOf(releaseName, namespace, release, pm.name, m, chart, compiled.pkg.tag);
      helmReleases.push(toJsonValue(hr));
      files.push(yamlFile(`helmReleases/${releaseName}-${pm.name}.yaml`, hr));
      if (!chart) continue;
      let rendered: Map<string, string>;
      try {
        rendered = renderTemplates(chart, {
          releaseName: `${releaseName}-${pm.name}`,
          namespace: m['targetNamespace'] as string,
          values: m['values'] as Obj,
          ...(input.kubeVersion ? { kubeVersion: input.kubeVersion } : {}),
        });
      } catch (e) {
        if (e instanceof ChartError)
          throw new KubocdError(`module '${pm.name}': could not render the chart: ${e.message}`, 'KUBOCD_EXEC');
        throw e;
      }
      for (const [path, text] of rendered)
        if (text.trim() !== '') manifests.push({ path: `manifests/${pm.name}/${path}`, text });
    }
    files.push(...manifests);
    result.modules = modules;
    result.helmReleases = helmReleases;
  } catch (e) {
    // Anything else is a bug of ours; its message could quote the data, so it is not shown.
    result.error =
      e instanceof KubocdError
        ? e
        : new KubocdError('internal error while rendering, message withheld, as it can quote the data', 'KUBOCD_EXEC');
  }
  return result;
}
