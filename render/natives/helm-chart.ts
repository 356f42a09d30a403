/**
 * The parseHelmChart native: kubecfg.parseHelmChart(importbin './chart.tgz',
 * releaseName, namespace, values, capabilities={}). Renders the chart with our
 * Helm engine (lang/helm) as `helm template` would and returns kubecfg's shape:
 * template path (`chart/templates/x.yaml`) -> list of objects. `capabilities`
 * is read as kubecfg reads it: `KubeVersion: {Version, Major, Minor}` sets
 * `.Capabilities.KubeVersion`, `APIVersions: [...]` is added to the default
 * list, `HelmVersion` is ignored. Chart bytes are untrusted: the archive reader
 * enforces path checks and size caps (hazards 6-8). As in kubecfg, CRDs of
 * `crds/` are included and objects without a namespace get `namespace`.
 * Parsed charts and results are cached by content in lang/helm (cache.ts).
 *
 * The declared parameter names are kubecfg's own, in kubecfg's order
 * (releaseName, namespace, chartData, ...), although kubecfg reads the
 * arguments positionally as (chartData, releaseName, namespace, ...); we keep
 * both quirks so a direct std.native call behaves as it does in kubecfg.
 */
import type { JsonValue } from '../../lang/common/json.js';
import { isJsonObject } from '../../lang/common/json.js';
import { DEFAULT_API_VERSIONS, parseHelmChart } from '../../lang/helm/index.js';
import { RenderError } from '../errors.js';
import type { NativeFunction } from './index.js';

function bytesArg(v: JsonValue | undefined): Uint8Array {
  if (!Array.isArray(v)) {
    throw new RenderError('RENDER_BAD_ARGUMENT', 'parseHelmChart: chartData must be an array of bytes (use importbin)');
  }
  const out = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const b = v[i];
    if (typeof b !== 'number' || !Number.isInteger(b) || b < 0 || b > 255) {
      throw new RenderError('RENDER_BAD_ARGUMENT', `parseHelmChart: chartData[${i}] is not a byte`);
    }
    out[i] = b;
  }
  return out;
}

function stringArg(param: string, v: JsonValue | undefined): string {
  if (typeof v !== 'string') throw new RenderError('RENDER_BAD_ARGUMENT', `parseHelmChart: ${param} must be a string`);
  return v;
}

export const parseHelmChartNative: NativeFunction = {
  params: ['releaseName', 'namespace', 'chartData', 'values', 'capabilities'],
  fn: ([chartData, releaseName, namespace, values, capabilities]) => {
    const tgz = bytesArg(chartData);
    const name = stringArg('releaseName', releaseName);
    const ns = stringArg('namespace', namespace);
    if (values !== null && values !== undefined && !isJsonObject(values)) {
      throw new RenderError('RENDER_BAD_ARGUMENT', 'parseHelmChart: values must be an object');
    }
    const caps = capabilities ?? {};
    if (!isJsonObject(caps))
      throw new RenderError('RENDER_BAD_ARGUMENT', 'parseHelmChart: capabilities must be an object');
    let kubeVersion: string | undefined;
    if (isJsonObject(caps.KubeVersion)) {
      kubeVersion = stringArg('capabilities.KubeVersion.Version', caps.KubeVersion.Version);
    }
    let apiVersions: string[] | undefined;
    if (Array.isArray(caps.APIVersions)) {
      if (!caps.APIVersions.every((x) => typeof x === 'string')) {
        throw new RenderError(
          'RENDER_BAD_ARGUMENT',
          'parseHelmChart: capabilities.APIVersions must be a list of strings',
        );
      }
      apiVersions = [...DEFAULT_API_VERSIONS, ...caps.APIVersions];
    }
    const rendered = parseHelmChart(tgz, name, ns, values ?? {}, {
      ...(kubeVersion ? { kubeVersion } : {}),
      ...(apiVersions ? { apiVersions } : {}),
    });
    return rendered;
  },
};
