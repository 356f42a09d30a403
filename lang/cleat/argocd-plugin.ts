/**
 * The files of Cleat's Argo CD config management plugin (CMP v2, sidecar
 * style): `plugin.yaml`, a ConfigManagementPlugin whose discover step finds
 * the entry file, whose generate step runs `kubecfg cleat argocd generate
 * --argocd-params` (inputs from ARGOCD_APP_PARAMETERS) and whose
 * parameters.dynamic step runs `kubecfg cleat argocd parameters` (the
 * program's inputs as UI parameters); and the sidecar's Dockerfile, which
 * builds kubecfg from its source tree and bakes plugin.yaml in at the path
 * argocd-cmp-server reads. Pure text generation: same options, same bytes.
 */
import { jsonObject, type JsonValue } from '../common/json.js';
import { toYamlText } from './serialize.js';
import { fromJsonValue } from './value.js';

export interface PluginOptions {
  /** The plugin's metadata.name (Applications select it by this name). */
  name: string;
  /** The Cleat file in the application's source directory, relative to it. */
  entry: string;
}

/** Where argocd-cmp-server reads the plugin's configuration inside the sidecar. */
const PLUGIN_CONFIG_DIR = '/home/argocd/cmp-server/config';

const PLUGIN_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why the options cannot make a working plugin, or undefined when they can. */
export function pluginOptionsProblem(o: PluginOptions): string | undefined {
  if (!PLUGIN_NAME.test(o.name) || o.name.length > 63)
    return `--name ${JSON.stringify(o.name)}: a plugin name must be a DNS label (lower-case letters, digits and -)`;
  const parts = o.entry.split('/');
  if (o.entry === '' || o.entry.startsWith('/') || parts.some((p) => p === '..' || p === '' || p.includes('\0')))
    return `--entry ${JSON.stringify(o.entry)}: must be a relative path inside the application's directory, without ..`;
  if (!o.entry.endsWith('.cleat')) return `--entry ${JSON.stringify(o.entry)}: must name a .cleat file`;
  return undefined;
}

/** discover.fileName is a Go filepath.Glob pattern: the entry's own metacharacters must match literally. */
function globLiteral(path: string): string {
  return path.replace(/[\\*?[]/g, (c) => `\\${c}`);
}

/** plugin.yaml for `o` (check pluginOptionsProblem first). */
export function pluginManifest(o: PluginOptions): string {
  const entry = o.entry.replace(/^(\.\/)+/, '');
  // Each request runs in a fresh copy of the repository, so a daemon's warm cache would never hit there.
  const kubecfg = ['kubecfg', 'cleat', 'argocd'];
  const doc: JsonValue = jsonObject([
    ['apiVersion', 'argoproj.io/v1alpha1'],
    ['kind', 'ConfigManagementPlugin'],
    ['metadata', jsonObject([['name', o.name]])],
    [
      'spec',
      jsonObject([
        ['discover', jsonObject([['fileName', `./${globLiteral(entry)}`]])],
        [
          'generate',
          jsonObject([['command', [...kubecfg, 'generate', '--no-daemon', '--argocd-params', '--', entry]]]),
        ],
        [
          'parameters',
          jsonObject([['dynamic', jsonObject([['command', [...kubecfg, 'parameters', '--no-daemon', '--', entry]]])]]),
        ],
      ]),
    ],
  ]);
  return (
    '# Argo CD config management plugin for Cleat (kubecfg cleat argocd plugin).\n' +
    `# The sidecar reads it from ${PLUGIN_CONFIG_DIR}/plugin.yaml (see kubecfg cleat argocd dockerfile).\n` +
    toYamlText(fromJsonValue(doc))
  );
}

/** The sidecar image: kubecfg built from its source tree (the build context), plugin.yaml beside it. */
export function sidecarDockerfile(): string {
  return `# Sidecar image for Cleat's Argo CD config management plugin.
# Build context: a kubecfg source tree with plugin.yaml (kubecfg cleat argocd plugin) at its top:
#   kubecfg cleat argocd plugin > plugin.yaml && docker build -f Dockerfile.cleat-argocd .
# Run it as a repo-server sidecar with /var/run/argocd/argocd-cmp-server as its command.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
# npm ci builds dist/ through the package's prepare script.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

FROM node:20-bookworm-slim
COPY --from=build /src/package.json /opt/kubecfg/package.json
COPY --from=build /src/node_modules /opt/kubecfg/node_modules
COPY --from=build /src/dist /opt/kubecfg/dist
RUN ln -s /opt/kubecfg/dist/bin/kubecfg.js /usr/local/bin/kubecfg
WORKDIR ${PLUGIN_CONFIG_DIR}
COPY plugin.yaml ./
# Argo CD runs plugin sidecars as user 999; /tmp is the sidecar's own writable volume.
ENV HOME=/tmp
USER 999
`;
}
