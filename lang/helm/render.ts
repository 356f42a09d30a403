/**
 * Renders a chart the way `helm template` does (Helm's pkg/engine): every
 * template of the chart and its enabled subcharts is parsed into one set,
 * deepest paths first so parent charts' defines win; each non-partial file
 * (not `_*`, not NOTES.txt) is executed with .Values (scoped per subchart),
 * .Release, .Chart, .Capabilities, .Template and .Files, missingkey=zero, and
 * `<no value>` removed. `renderChart` then parses each output as a YAML
 * stream into objects, like kubecfg's parseHelmChart.
 * Errors read as Helm prints them ("parse error at (...)", "execution error at (...)").
 */

import type { JsonValue } from '../common/json.js';
import { jsonObject } from '../common/json.js';
import { compileGoRegexp, type GoRegexp } from '../go/regexp/go-regexp.js';
import { GoYamlError, goYamlToJson, unmarshalYaml, unmarshalYamlStream, type GoValue } from '../go/yaml-v2.js';
import { helmErrorMessage, profiles, seededRandom, TemplateError, TemplateSet } from '../gotemplate/index.js';
import { GoObject, isMap, mapSet, tagType, withMethods } from '../gotemplate/value.js';
import { type Chart, type ChartFile } from './chart.js';
import { ChartError } from './chart-error.js';
import { processDependencies, coalesceChartValues, type Values } from './values.js';
import { validateValuesSchemas } from './schema.js';
import { marshalYaml } from '../gotemplate/index.js';

export interface RenderOptions {
  releaseName: string;
  namespace: string;
  /** User values (highest precedence), as Go values (numbers from YAML are float64). */
  values?: Values;
  /** Capabilities.KubeVersion (default v1.20.0). */
  kubeVersion?: string;
  /** Capabilities.APIVersions (default: Helm's DefaultVersionSet, DEFAULT_API_VERSIONS). */
  apiVersions?: string[];
  /** Output cap per template (default 4 MiB). */
  maxOutputBytes?: number;
  /** Seed of `rand*`/`uuidv4`/key generators (default 0); callers derive it from the chart and values. */
  seed?: number;
}

/**
 * Helm 3.18.5's chartutil.DefaultVersionSet: every group version client-go v0.33.3's
 * kubernetes/scheme registers (alpha and beta included), in the order the scheme first saw them
 * (`v1` from its init, then its AddToScheme list), then apiextensions v1beta1 and v1, which
 * chartutil adds. `Has` is what charts use; the order shows only when a template ranges over it.
 */
export const DEFAULT_API_VERSIONS = [
  'v1',
  'admissionregistration.k8s.io/v1',
  'admissionregistration.k8s.io/v1alpha1',
  'admissionregistration.k8s.io/v1beta1',
  'internal.apiserver.k8s.io/v1alpha1',
  'apps/v1',
  'apps/v1beta1',
  'apps/v1beta2',
  'authentication.k8s.io/v1',
  'authentication.k8s.io/v1alpha1',
  'authentication.k8s.io/v1beta1',
  'authorization.k8s.io/v1',
  'authorization.k8s.io/v1beta1',
  'autoscaling/v1',
  'autoscaling/v2',
  'autoscaling/v2beta1',
  'autoscaling/v2beta2',
  'batch/v1',
  'batch/v1beta1',
  'certificates.k8s.io/v1',
  'certificates.k8s.io/v1beta1',
  'certificates.k8s.io/v1alpha1',
  'coordination.k8s.io/v1alpha2',
  'coordination.k8s.io/v1beta1',
  'coordination.k8s.io/v1',
  'discovery.k8s.io/v1',
  'discovery.k8s.io/v1beta1',
  'events.k8s.io/v1',
  'events.k8s.io/v1beta1',
  'extensions/v1beta1',
  'flowcontrol.apiserver.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1beta1',
  'flowcontrol.apiserver.k8s.io/v1beta2',
  'flowcontrol.apiserver.k8s.io/v1beta3',
  'networking.k8s.io/v1',
  'networking.k8s.io/v1alpha1',
  'networking.k8s.io/v1beta1',
  'node.k8s.io/v1',
  'node.k8s.io/v1alpha1',
  'node.k8s.io/v1beta1',
  'policy/v1',
  'policy/v1beta1',
  'rbac.authorization.k8s.io/v1',
  'rbac.authorization.k8s.io/v1beta1',
  'rbac.authorization.k8s.io/v1alpha1',
  'resource.k8s.io/v1beta2',
  'resource.k8s.io/v1beta1',
  'resource.k8s.io/v1alpha3',
  'scheduling.k8s.io/v1alpha1',
  'scheduling.k8s.io/v1beta1',
  'scheduling.k8s.io/v1',
  'storage.k8s.io/v1beta1',
  'storage.k8s.io/v1',
  'storage.k8s.io/v1alpha1',
  'storagemigration.k8s.io/v1alpha1',
  'apiextensions.k8s.io/v1beta1',
  'apiextensions.k8s.io/v1',
];

/** chartutil.KubeVersion: fields Version/Major/Minor/GitVersion; prints as its Version. */
class KubeVersion extends GoObject {
  constructor(private readonly version: string) {
    super();
  }
  goType(): string {
    return '*chartutil.KubeVersion';
  }
  format(): string {
    return this.version;
  }
  toJSONValue(): unknown {
    return { Version: this.version, Major: this.part(1), Minor: this.part(2), GitVersion: this.version };
  }
  private part(i: number): string {
    return /^v?(\d+)\.(\d+)/.exec(this.version)?.[i] ?? '';
  }
  field(name: string): unknown {
    switch (name) {
      case 'Version':
      case 'GitVersion':
        return this.version;
      case 'Major':
        return this.part(1);
      case 'Minor':
        return this.part(2);
      case 'String':
        return () => this.version;
    }
    return undefined;
  }
}

/**
 * Helm's version.BuildInfo as kubecfg's embedded Helm 3.18.5 reports it: `version` is the source
 * default of the release branch ("v3.18"; kubecfg does not set Helm's ldflags), git fields empty.
 * GoVersion is runtime.Version() of whatever toolchain built a kubecfg binary; no single value is
 * right, so it is empty (docs/helm.md). Prints as Go prints the struct; toYaml/toJson see the
 * json tags with omitempty, so only `version`.
 */
const HELM_VERSION = 'v3.18';

class HelmBuildInfo extends GoObject {
  private readonly fields: Record<string, string> = {
    Version: HELM_VERSION,
    GitCommit: '',
    GitTreeState: '',
    GoVersion: '',
  };
  goType(): string {
    return 'version.BuildInfo';
  }
  format(): string {
    return `{${Object.values(this.fields).join(' ')}}`;
  }
  toJSONValue(): unknown {
    return { version: HELM_VERSION };
  }
  field(name: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.fields, name) ? this.fields[name] : undefined;
  }
}

/** chartutil.VersionSet: a []string with `Has`, so templates can range over it, len and index it. */
function versionSet(versions: readonly string[]): string[] {
  const list = [...versions];
  return tagType(withMethods(list, { Has: (v: unknown) => list.includes(String(v)) }), 'chartutil.VersionSet');
}

const text = new TextDecoder();

/**
 * Minimal gobwas/glob as Helm's Files.Glob uses it: `*` and `?` (one character, not one UTF-16 unit)
 * stay within a path segment, `**` crosses them. Matched in linear time, as gobwas does.
 */
function globRegex(pattern: string): GoRegexp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return compileGoRegexp(`^${re}$`);
}

class Files extends GoObject {
  constructor(private readonly files: ChartFile[]) {
    super();
  }
  goType(): string {
    return 'engine.files';
  }
  format(): string {
    return 'map[' + this.files.map((f) => `${f.name}:[${Array.from(f.data).join(' ')}]`).join(' ') + ']';
  }
  override mapEntries(): [string, unknown][] {
    return this.files.map((f) => [f.name, f.data]);
  }
  private get(name: string): string {
    const f = this.files.find((x) => x.name === name);
    return f ? text.decode(f.data) : '';
  }
  field(name: string): unknown {
    switch (name) {
      case 'Get':
        return (n: unknown) => this.get(String(n));
      case 'GetBytes':
        return (n: unknown) => this.files.find((x) => x.name === String(n))?.data ?? new Uint8Array();
      case 'Lines':
        return (n: unknown) => {
          const s = this.get(String(n));
          return s === '' ? [] : s.split('\n');
        };
      case 'Glob':
        return (p: unknown) => {
          const re = globRegex(String(p));
          return new Files(this.files.filter((f) => re.test(f.name)));
        };
      case 'AsConfig':
        return () => {
          const m: Record<string, unknown> = {};
          for (const f of this.files) mapSet(m, f.name.slice(f.name.lastIndexOf('/') + 1), text.decode(f.data));
          return this.files.length ? marshalYaml(m).replace(/\n$/, '') : '';
        };
      case 'AsSecrets':
        return () => {
          const m: Record<string, unknown> = {};
          for (const f of this.files)
            mapSet(m, f.name.slice(f.name.lastIndexOf('/') + 1), Buffer.from(f.data).toString('base64'));
          return this.files.length ? marshalYaml(m).replace(/\n$/, '') : '';
        };
    }
    return undefined;
  }
}

const metadataFields: [string, string][] = [
  ['name', 'Name'],
  ['home', 'Home'],
  ['sources', 'Sources'],
  ['version', 'Version'],
  ['description', 'Description'],
  ['keywords', 'Keywords'],
  ['maintainers', 'Maintainers'],
  ['icon', 'Icon'],
  ['apiVersion', 'APIVersion'],
  ['condition', 'Condition'],
  ['tags', 'Tags'],
  ['appVersion', 'AppVersion'],
  ['deprecated', 'Deprecated'],
  ['annotations', 'Annotations'],
  ['kubeVersion', 'KubeVersion'],
  ['dependencies', 'Dependencies'],
  ['type', 'Type'],
];

/** Chart.yaml as Helm's Metadata struct: Go field names, zero values for absent fields. */
function chartObject(chart: Chart): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  for (const [yamlKey, goKey] of metadataFields) {
    const v = chart.metadata[yamlKey];
    const zero = ['sources', 'keywords', 'maintainers', 'dependencies', 'annotations'].includes(yamlKey)
      ? null
      : yamlKey === 'deprecated'
        ? false
        : '';
    mapSet(m, goKey, v === undefined ? zero : v);
  }
  return m;
}

interface Renderable {
  path: string;
  source: string;
  values: Values;
  chart: Chart;
  basePath: string;
}

function collect(chart: Chart, values: Values, prefix: string, out: Renderable[]): void {
  // A library chart only contributes its partials (Helm's isTemplateValid).
  const library = chart.metadata.type === 'library';
  for (const t of chart.templates) {
    if (library && !t.name.slice(t.name.lastIndexOf('/') + 1).startsWith('_')) continue;
    out.push({
      path: `${prefix}/${t.name}`,
      source: text.decode(t.data),
      values,
      chart,
      basePath: `${prefix}/templates`,
    });
  }
  for (const sub of chart.dependencies) {
    const sv = isMap(values[sub.name]) ? (values[sub.name] as Values) : {};
    collect(sub, sv, `${prefix}/charts/${sub.name}`, out);
  }
}

function byPathLenReversed(a: string, b: string): number {
  const ca = a.split('/').length;
  const cb = b.split('/').length;
  if (ca !== cb) return cb - ca;
  return a < b ? 1 : a > b ? -1 : 0;
}

function parseErrorMessage(file: string, err: TemplateError): string {
  const tokens = err.message.split(': ');
  if (tokens.length === 1) return `parse error in (${file}): ${err.message}`;
  return `parse error at (${tokens[1]}): ${tokens[tokens.length - 1]}`;
}

/** helm template: path → rendered text for every non-partial template. Throws ChartError. */
export function renderTemplates(chart0: Chart, opts: RenderOptions): Map<string, string> {
  const user = opts.values ?? {};
  const chart = processDependencies(chart0, user);
  const values = coalesceChartValues(chart, user);
  validateValuesSchemas(chart, values);
  const release = jsonObject([
    ['Name', opts.releaseName],
    ['Namespace', opts.namespace],
    ['IsInstall', true],
    ['IsUpgrade', false],
    ['Revision', 1],
    ['Service', 'Helm'],
  ]);
  const capabilities = {
    KubeVersion: new KubeVersion(opts.kubeVersion ?? 'v1.20.0'),
    APIVersions: versionSet(opts.apiVersions ?? DEFAULT_API_VERSIONS),
    HelmVersion: new HelmBuildInfo(),
  };
  const items: Renderable[] = [];
  collect(chart, values, chart.name, items);
  items.sort((a, b) => byPathLenReversed(a.path, b.path));
  const set = new TemplateSet('gotpl', {
    functions: profiles.helm,
    missingKey: 'zero',
    maxOutputBytes: opts.maxOutputBytes,
    ...(opts.seed !== undefined ? { random: seededRandom(opts.seed) } : {}),
  });
  for (const it of items) {
    try {
      set.parse(it.path, it.source);
    } catch (e) {
      if (e instanceof TemplateError) throw new ChartError(parseErrorMessage(it.path, e), 'HELM_TEMPLATE');
      throw e;
    }
  }
  const out = new Map<string, string>();
  for (const it of [...items].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const base = it.path.slice(it.path.lastIndexOf('/') + 1);
    if (base.startsWith('_') || base === 'NOTES.txt') continue;
    const data = {
      Values: it.values,
      Release: release,
      Chart: chartObject(it.chart),
      Capabilities: capabilities,
      Template: { Name: it.path, BasePath: it.basePath },
      Files: new Files(it.chart.files),
    };
    try {
      out.set(it.path, set.execute(it.path, data).replaceAll('<no value>', ''));
    } catch (e) {
      if (e instanceof TemplateError)
        throw new ChartError(helmErrorMessage(e.message), e.code === 'TPL_LIMIT' ? 'HELM_LIMIT' : 'HELM_TEMPLATE');
      throw e;
    }
  }
  return out;
}

/** A go-yaml failure as Helm's callers word it: `error parsing FILE line N: ...` for a syntax error. */
function yamlFailure(file: string, e: unknown): unknown {
  if (!(e instanceof GoYamlError)) return e;
  if (e.line !== undefined)
    return new ChartError(
      `error parsing ${file} line ${e.line}: ${e.message.replace(/^yaml: line \d+: /, '')}`,
      'HELM_YAML',
    );
  return new ChartError(`error parsing ${file}: ${e.message}`, 'HELM_YAML');
}

function toJson(file: string, v: GoValue): JsonValue {
  try {
    return goYamlToJson(v);
  } catch (e) {
    throw yamlFailure(file, e);
  }
}

/** Parses one rendered file as a YAML stream; empty and null documents are dropped. */
export function parseManifests(file: string, yamlText: string): JsonValue[] {
  let docs: GoValue[];
  try {
    docs = unmarshalYamlStream(yamlText);
  } catch (e) {
    throw yamlFailure(file, e);
  }
  return docs.filter((d) => d !== null).map((d) => toJson(file, d));
}

/** yaml.Unmarshal of one document (later documents in the text are not read), as JSON. */
export function parseManifest(file: string, yamlText: string): JsonValue {
  let doc: GoValue;
  try {
    doc = unmarshalYaml(yamlText);
  } catch (e) {
    throw yamlFailure(file, e);
  }
  return toJson(file, doc);
}

/** kubecfg's parseHelmChart: rendered objects per template path (`chart/templates/x.yaml`). */
export function renderChart(chart: Chart, opts: RenderOptions): Record<string, JsonValue[]> {
  const rendered = renderTemplates(chart, opts);
  const result: Record<string, JsonValue[]> = {};
  for (const [path, body] of rendered) mapSet(result, path, parseManifests(path, body));
  return result;
}
