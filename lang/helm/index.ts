/**
 * Helm charts without Helm: load a chart from an in-memory file tree or a
 * .tgz (capped, path-checked), coalesce values, render as `helm template`,
 * and return objects per template path as kubecfg's parseHelmChart does.
 */

export {
  extractChartArchive,
  ChartArchiveError,
  MAX_DECOMPRESSED_CHART_SIZE,
  MAX_DECOMPRESSED_FILE_SIZE,
} from './archive.js';
export {
  loadChart,
  loadChartArchive,
  loadChartDirectory,
  type Chart,
  type ChartFile,
  type Dependency,
  type ImportValue,
} from './chart.js';
export { ChartError } from './chart-error.js';
export { HelmIgnore } from './helmignore.js';
export { validateValuesSchemas } from './schema.js';
export { parseHelmChart, renderChartForKubecfg, loadChartArchiveCached, type HelmCapabilities } from './kubecfg.js';
export {
  helmCacheStats,
  clearHelmCaches,
  configureHelmCaches,
  DEFAULT_CHART_CACHE_BYTES,
  DEFAULT_RENDER_CACHE_BYTES,
  type HelmCacheStats,
} from './cache.js';
export { coalesceChartValues, processDependencies, valuesFromJson, type Values } from './values.js';
export { DEFAULT_API_VERSIONS, renderChart, renderTemplates, parseManifests, type RenderOptions } from './render.js';
