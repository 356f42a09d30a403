/**
 * The render half of `kubecfg kubocd render --package oci://...`: the
 * content layer of a KuboCD package image (layout in ../remote-inputs/kubocd-fetch.ts) turned
 * into the Package manifest text (original.yaml) and each module's chart
 * (status.yaml's chartByModule -> NAME-VERSION.tgz). Synchronous, runs in
 * the worker. Invariants: the layer is inflated with a cap and read with
 * the fail-closed tar reader; nothing is written to disk; every error names
 * the image and the file of the layer it is about.
 */
import { gunzipSync } from 'node:zlib';
import { yamlToJson } from '../../lang/go/yaml-v2.js';
import { loadChartArchive, type Chart } from '../../lang/helm/index.js';
import { readPackageManifest } from '../../lang/kubocd/index.js';
import { readTar } from '../../oci/tar-reader.js';
import { describeError } from './errors.js';
import { KubocdFetchError } from '../remote-inputs/kubocd-fetch.js';

/** Caps on the content layer once inflated (charts included). */
const MAX_CONTENT_BYTES = 200 * 1024 * 1024;
const CONTENT_TAR_LIMITS = { maxFileBytes: 100 * 1024 * 1024, maxTotalBytes: MAX_CONTENT_BYTES, maxEntries: 1000 };

export interface KubocdPackageArchive {
  /** original.yaml: the Package manifest as its author wrote it. */
  packageText: string;
  /** Each module's chart, from status.yaml's chartByModule. */
  charts: Map<string, Chart>;
}

function statusCharts(text: string, where: string): Map<string, { name: string; version: string }> {
  let doc: unknown;
  try {
    doc = yamlToJson(text);
  } catch {
    throw new KubocdFetchError(`${where}: status.yaml is not valid YAML`);
  }
  const byModule =
    doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>)['chartByModule'] : undefined;
  if (byModule === null || typeof byModule !== 'object' || Array.isArray(byModule))
    throw new KubocdFetchError(`${where}: status.yaml has no chartByModule mapping`);
  const out = new Map<string, { name: string; version: string }>();
  for (const [module, ref] of Object.entries(byModule as Record<string, unknown>)) {
    const r = ref !== null && typeof ref === 'object' ? (ref as Record<string, unknown>) : {};
    if (typeof r['name'] !== 'string' || typeof r['version'] !== 'string' || r['name'] === '')
      throw new KubocdFetchError(`${where}: status.yaml chartByModule.${module} needs a name and a version`);
    out.set(module, { name: r['name'], version: r['version'] });
  }
  return out;
}

/** The Package manifest and the modules' charts of a content layer (`where` names the image in errors). */
export function readKubocdPackageArchive(layer: Uint8Array, where: string): KubocdPackageArchive {
  let tar: Uint8Array;
  try {
    tar = gunzipSync(layer, { maxOutputLength: MAX_CONTENT_BYTES });
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new KubocdFetchError(
      code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError
        ? `${where}: package content expands beyond ${MAX_CONTENT_BYTES} bytes`
        : `${where}: package content is not valid gzip`,
    );
  }
  let files: Map<string, Uint8Array>;
  try {
    files = readTar(tar, `${where} package content`, CONTENT_TAR_LIMITS);
  } catch (err) {
    throw new KubocdFetchError(describeError(err));
  }
  const text = (name: string): string => {
    const bytes = files.get(name);
    if (bytes === undefined) throw new KubocdFetchError(`${where}: package content has no ${name}`);
    return new TextDecoder('utf-8').decode(bytes);
  };
  const packageText = text('original.yaml');
  const chartRefs = statusCharts(text('status.yaml'), where);
  const charts = new Map<string, Chart>();
  // Modules the package declares; a module missing from status.yaml is a broken package.
  for (const module of readPackageManifest(packageText).modules) {
    const ref = chartRefs.get(module.name);
    if (ref === undefined) throw new KubocdFetchError(`${where}: status.yaml names no chart for module ${module.name}`);
    const file = `${ref.name}-${ref.version}.tgz`;
    const tgz = files.get(file);
    if (tgz === undefined)
      throw new KubocdFetchError(`${where}: module ${module.name}: package content has no chart ${file}`);
    try {
      charts.set(module.name, loadChartArchive(tgz));
    } catch (err) {
      throw new KubocdFetchError(`${where}: module ${module.name}: chart ${file}: ${describeError(err)}`);
    }
  }
  return { packageText, charts };
}
