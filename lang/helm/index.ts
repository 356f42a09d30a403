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
export { loadChart, loadChartArchive, ChartError, type Chart, type ChartFile, type Dependency } from './chart.js';
export { coalesceChartValues, processDependencies, valuesFromJson, type Values } from './values.js';
export {
  DEFAULT_API_VERSIONS,
  parseHelmChart,
  renderChart,
  renderTemplates,
  parseManifests,
  type RenderOptions,
} from './render.js';
