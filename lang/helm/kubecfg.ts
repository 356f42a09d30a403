/**
 * kubecfg's `parseHelmChart(chartData, releaseName, namespace, values, capabilities)`
 * on top of `helm template`: the CRDs of the chart and its (enabled)
 * subcharts first, keyed `chart/crds/x.yaml` / `chart/charts/sub/crds/x.yaml`
 * and parsed as they are (files ending .yaml, .yml or .json), then every
 * rendered template, where each object without a namespace gets the release
 * namespace (kubecfg's fix-up for helm/helm#5465) and labels/annotations
 * must be string maps (kubecfg's unstructured check). Charts are parsed once
 * per content hash and results memoised (see cache.ts).
 *
 * Documents are split as kubecfg splits them (apimachinery's YAMLReader, see
 * parseKubecfgDocuments): a document that is only blank lines or comments
 * stays in the file's list as `null` (show and update skip nulls), while a
 * file that renders to nothing at all gives an empty list.
 * Invariant: the result never aliases a cached value.
 */

import type { JsonObject, JsonValue } from '../common/json.js';
import { isJsonObject, setJsonKey } from '../common/json.js';
import { isMap } from '../gotemplate/value.js';
import { type Chart, loadChartArchive } from './chart.js';
import { ChartError } from './chart-error.js';
import { chartCache, copyJson, renderCache, sha256Hex } from './cache.js';
import { GoYamlError, splitYamlDocuments } from '../go/yaml-v2.js';
import { parseManifest, type RenderOptions, renderTemplates } from './render.js';
import { processDependencies, valuesFromJson } from './values.js';

const MANIFEST_EXTENSION = /\.(ya?ml|json)$/;

/**
 * kubecfg's list for one file, split as kubecfg's unmarshalYAMLString reads
 * it (apimachinery's YAMLReader: a line starting `---` ends a non-empty
 * document; only spaces or a comment may follow the `---`): each document's
 * value, `null` for a document holding no value (blank, comments only, a bare
 * `---`). As Go's yaml.Unmarshal, only the first YAML document of a chunk
 * counts (a `...` marker inside one).
 */
export function parseKubecfgDocuments(file: string, text: string): JsonValue[] {
  let split;
  try {
    split = splitYamlDocuments(text, 'apimachinery');
  } catch (e) {
    if (e instanceof GoYamlError)
      throw new ChartError(
        `error parsing ${file} line ${e.line}: ${e.message.replace('invalid Yaml', 'invalid YAML')}`,
        'HELM_YAML',
      );
    throw e;
  }
  // Blank lines in front keep the parser's line numbers those of the file.
  return split.docs.map((doc, i) => parseManifest(file, '\n'.repeat(split.firstLines[i]!) + doc));
}

function collectCrds(chart: Chart, fullPath: string, out: Record<string, JsonValue[]>): void {
  for (const f of chart.files) {
    if (!f.name.startsWith('crds/') || !MANIFEST_EXTENSION.test(f.name)) continue;
    const key = `${fullPath}/${f.name}`;
    try {
      setJsonKey(out, key, parseKubecfgDocuments(key, new TextDecoder().decode(f.data)));
    } catch (e) {
      if (e instanceof ChartError)
        throw new ChartError(`failed to parse CRD in file "${key}" from helm chart: ${e.message}`, e.code);
      throw e;
    }
  }
  for (const sub of chart.dependencies) collectCrds(sub, `${fullPath}/charts/${sub.name}`, out);
}

/** apimachinery's GroupVersionKind pieces as kubecfg prints them in `v1/Kind.group/ns/name`. */
function resourceName(obj: JsonObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const slash = apiVersion.indexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const meta = isJsonObject(obj.metadata) ? obj.metadata : {};
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  return `${version}/${group === '' ? kind : `${kind}.${group}`}.${ns}/${name}`;
}

function fixUpObject(file: string, obj: JsonValue, namespace: string): void {
  if (!isJsonObject(obj)) return;
  const meta = obj.metadata;
  if (isJsonObject(meta)) {
    for (const field of ['annotations', 'labels']) {
      const m = meta[field];
      if (m === undefined || m === null) continue;
      if (!isJsonObject(m) || Object.values(m).some((x) => typeof x !== 'string'))
        throw new ChartError(
          `${field} map contains invalid (non-string) values in resource: ${resourceName(obj)} (in ${file})`,
          'HELM_YAML',
        );
    }
  }
  const ns = isJsonObject(meta) ? meta.namespace : undefined;
  if (typeof ns === 'string' && ns !== '') return;
  // As unstructured.SetNamespace: a metadata that is present but not a map is left alone.
  if (isJsonObject(meta)) setJsonKey(meta, 'namespace', namespace);
  else if (meta === undefined) setJsonKey(obj, 'metadata', { namespace });
}

/** kubecfg's parseHelmChart result for a loaded chart. */
export function renderChartForKubecfg(chart: Chart, opts: RenderOptions): Record<string, JsonValue[]> {
  const result: Record<string, JsonValue[]> = {};
  collectCrds(processDependencies(chart, opts.values ?? {}), chart.name, result);
  for (const [path, body] of renderTemplates(chart, opts)) {
    const objs = parseKubecfgDocuments(path, body);
    for (const o of objs) fixUpObject(path, o, opts.namespace);
    setJsonKey(result, path, objs);
  }
  return result;
}

export interface HelmCapabilities {
  kubeVersion?: string;
  apiVersions?: string[];
}

function chartSize(chart: Chart): number {
  let n = 0;
  for (const f of [...chart.templates, ...chart.files]) n += f.data.length + f.name.length;
  for (const d of chart.dependencies) n += chartSize(d);
  return n + 1024;
}

/** The chart in a .tgz, parsed once per content (sha256 of the bytes). */
export function loadChartArchiveCached(tgz: Uint8Array): { chart: Chart; digest: string } {
  const digest = sha256Hex(tgz);
  let chart = chartCache.get(digest);
  if (!chart) {
    chart = loadChartArchive(tgz);
    chartCache.set(digest, chart, chartSize(chart));
  }
  return { chart, digest };
}

function resultSize(r: Record<string, JsonValue[]>): number {
  return JSON.stringify(r).length * 2;
}

/**
 * kubecfg's `parseHelmChart(chartData, releaseName, namespace, values, capabilities)`:
 * a .tgz chart rendered with JSON values (numbers become float64, as in Go).
 * The same bytes and arguments are rendered once; later calls get a copy.
 */
export function parseHelmChart(
  tgz: Uint8Array,
  releaseName: string,
  namespace: string,
  values: JsonValue,
  capabilities: HelmCapabilities = {},
): Record<string, JsonValue[]> {
  const v = valuesFromJson(values ?? {});
  if (!isMap(v)) throw new ChartError('parseHelmChart: values must be an object', 'HELM_VALUES');
  const { chart, digest } = loadChartArchiveCached(tgz);
  const key = sha256Hex(
    digest,
    JSON.stringify([
      releaseName,
      namespace,
      values ?? {},
      capabilities.kubeVersion ?? null,
      capabilities.apiVersions ?? null,
    ]),
  );
  let result = renderCache.get(key);
  if (!result) {
    result = renderChartForKubecfg(chart, {
      releaseName,
      namespace,
      values: v,
      // Randomness seeded by content: one input always renders the same bytes.
      seed: parseInt(key.slice(0, 8), 16),
      ...(capabilities.kubeVersion !== undefined ? { kubeVersion: capabilities.kubeVersion } : {}),
      ...(capabilities.apiVersions !== undefined ? { apiVersions: capabilities.apiVersions } : {}),
    });
    renderCache.set(key, result, resultSize(result));
  }
  return copyJson(result) as unknown as Record<string, JsonValue[]>;
}
