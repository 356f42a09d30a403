/**
 * Loads a Helm chart from an in-memory file tree (path → bytes), as Helm's
 * loader does from a directory or archive: Chart.yaml (apiVersion v1/v2,
 * v1 requirements.yaml), values.yaml, templates/, charts/ (subchart
 * directories and nested .tgz archives), and every other file for `.Files`.
 * Invariant: only the given bytes are read; subchart archives go through
 * the same capped extractor.
 */

import { readYaml } from '../gotemplate/index.js';
import { isMap } from '../gotemplate/value.js';
import { extractChartArchive } from './archive.js';
import { HelmIgnore } from './helmignore.js';
import { ChartError } from './chart-error.js';

export interface ChartFile {
  /** Path relative to the chart root, e.g. `templates/deployment.yaml`. */
  name: string;
  data: Uint8Array;
}

/** One `import-values` entry: `child` table of the subchart's values copied to `parent` in the parent's. */
export interface ImportValue {
  child: string;
  parent: string;
}

export interface Dependency {
  name: string;
  alias?: string;
  condition?: string;
  tags?: string[];
  enabled?: boolean;
  /** `import-values`, the string form already turned into `{ child: 'exports.<s>', parent: '.' }`. */
  importValues?: ImportValue[];
}

export interface Chart {
  /** Chart.yaml as read (Go values: numbers are float64). */
  metadata: Record<string, unknown>;
  name: string;
  /** values.yaml (empty map when absent). */
  values: Record<string, unknown>;
  templates: ChartFile[];
  /** Files other than Chart.yaml, values.yaml, values.schema.json, locks, templates/ and charts/ (for `.Files`). */
  files: ChartFile[];
  dependencies: Chart[];
  /** Dependency declarations from Chart.yaml (v2) or requirements.yaml (v1). */
  requirements: Dependency[];
  /** values.schema.json as found (validated against the final values at render time). */
  schema?: Uint8Array;
}

const text = new TextDecoder();

function yamlMap(data: Uint8Array, file: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = readYaml(text.decode(data));
  } catch (e) {
    throw new ChartError(`cannot load ${file}: ${(e as Error).message}`);
  }
  if (v === null) return {};
  if (!isMap(v))
    throw new ChartError(
      `cannot load ${file}: error unmarshaling JSON: json: cannot unmarshal ${Array.isArray(v) ? 'array' : 'string'} into Go value of type map[string]interface {}`,
    );
  return v;
}

function topDir(files: Map<string, Uint8Array>): string {
  const tops = new Set([...files.keys()].map((p) => p.split('/')[0]!));
  if (tops.size === 1) {
    const t = [...tops][0]!;
    if (files.has(`${t}/Chart.yaml`)) return t;
  }
  if (files.has('Chart.yaml')) return '';
  throw new ChartError('Chart.yaml file is missing');
}

function importValues(list: unknown, dep: string): ImportValue[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: ImportValue[] = [];
  for (const iv of list) {
    if (typeof iv === 'string') out.push({ child: `exports.${iv}`, parent: '.' });
    else if (isMap(iv) && typeof iv.child === 'string' && typeof iv.parent === 'string')
      out.push({ child: iv.child, parent: iv.parent });
    else
      // Helm would panic on its type assertion; a chart is untrusted input, so say why instead.
      throw new ChartError(
        `dependency ${dep}: import-values entries must be strings or maps with string "child" and "parent"`,
      );
  }
  return out;
}

function deps(list: unknown): Dependency[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isMap).map((d) => ({
    name: String(d.name ?? ''),
    alias: typeof d.alias === 'string' ? d.alias : undefined,
    condition: typeof d.condition === 'string' ? d.condition : undefined,
    tags: Array.isArray(d.tags) ? d.tags.map(String) : undefined,
    importValues: importValues(d['import-values'], String(d.name ?? '')),
  }));
}

const semverRe = /^v?[0-9]+(\.[0-9]+){0,2}(-[0-9A-Za-z-.]+)?(\+[0-9A-Za-z-.]+)?$/;

/** Loads the chart whose Chart.yaml is at `<root>/Chart.yaml` (root detected when omitted). */
export function loadChart(files: Map<string, Uint8Array>, root?: string): Chart {
  const base = root ?? topDir(files);
  const prefix = base === '' ? '' : base + '/';
  const own = new Map<string, Uint8Array>();
  for (const [p, d] of files) if (p.startsWith(prefix)) own.set(p.slice(prefix.length), d);
  const chartYaml = own.get('Chart.yaml');
  if (!chartYaml) throw new ChartError('Chart.yaml file is missing');
  const metadata = yamlMap(chartYaml, 'Chart.yaml');
  const apiVersion = metadata.apiVersion;
  if (apiVersion === undefined || apiVersion === '')
    throw new ChartError('validation: chart.metadata.apiVersion is required');
  if (apiVersion !== 'v1' && apiVersion !== 'v2')
    throw new ChartError(`validation: chart.metadata.apiVersion "${String(apiVersion)}" is invalid`);
  if (typeof metadata.name !== 'string' || metadata.name === '')
    throw new ChartError('validation: chart.metadata.name is required');
  if (metadata.version === undefined || metadata.version === '')
    throw new ChartError('validation: chart.metadata.version is required');
  if (typeof metadata.version !== 'string' || !semverRe.test(metadata.version))
    throw new ChartError(`validation: chart.metadata.version "${String(metadata.version)}" is invalid`);

  const values = own.has('values.yaml') ? yamlMap(own.get('values.yaml')!, 'values.yaml') : {};
  let requirements = deps(metadata.dependencies);
  if (apiVersion === 'v1' && own.has('requirements.yaml'))
    requirements = deps(yamlMap(own.get('requirements.yaml')!, 'requirements.yaml').dependencies);

  const templates: ChartFile[] = [];
  const other: ChartFile[] = [];
  const subdirs = new Set<string>();
  const dependencies: Chart[] = [];
  for (const [p, data] of [...own].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // As Helm's loader: these feed metadata, values, schema and locks, not `.Files`.
    if (
      [
        'Chart.yaml',
        'values.yaml',
        'values.schema.json',
        'requirements.yaml',
        'requirements.lock',
        'Chart.lock',
      ].includes(p)
    )
      continue;
    if (p.startsWith('templates/')) templates.push({ name: p, data });
    else if (p.startsWith('charts/')) {
      const rest = p.slice('charts/'.length);
      const slash = rest.indexOf('/');
      if (slash < 0) {
        if (rest.endsWith('.tgz')) dependencies.push(loadChart(extractChartArchive(data)));
        else other.push({ name: p, data });
      } else subdirs.add(rest.slice(0, slash));
    } else other.push({ name: p, data });
  }
  for (const d of [...subdirs].sort()) {
    if (!own.has(`charts/${d}/Chart.yaml`)) continue;
    dependencies.push(loadChart(own, `charts/${d}`));
  }
  const schema = own.get('values.schema.json');
  return {
    metadata,
    name: metadata.name,
    values,
    templates,
    files: other,
    dependencies,
    requirements,
    ...(schema ? { schema } : {}),
  };
}

/**
 * Loads a chart read from a directory (path → bytes, the chart directory as
 * top folder or as root), dropping what its `.helmignore` ignores, as Helm's
 * LoadDir does. Use loadChart/loadChartArchive for .tgz contents.
 */
export function loadChartDirectory(files: Map<string, Uint8Array>): Chart {
  const base = topDir(files);
  const prefix = base === '' ? '' : base + '/';
  const own = new Map<string, Uint8Array>();
  for (const [p, d] of files) if (p.startsWith(prefix)) own.set(p.slice(prefix.length), d);
  const ignoreFile = own.get('.helmignore');
  const kept = new HelmIgnore(ignoreFile ? text.decode(ignoreFile) : '').filter(own);
  return loadChart(kept, '');
}

/** Loads a chart from .tgz bytes. */
export function loadChartArchive(tgz: Uint8Array): Chart {
  return loadChart(extractChartArchive(tgz));
}
