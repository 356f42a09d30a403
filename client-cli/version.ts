/**
 * `kubecfg version [-o json]`: kubecfg's two lines plus ours (build id,
 * protocol, node); `-o json` gives the same facts as one object with stable
 * keys (docs/cli.md), for scripts that would otherwise parse the text.
 */
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { cliBuildId, JSONNET_VERSION, KUBECFG_VERSION } from './build-info.js';

export interface VersionInfo {
  kubecfgVersion: string;
  jsonnetVersion: string;
  buildId: string;
  protocolVersion: number;
  nodeVersion: string;
}

export function versionInfo(): VersionInfo {
  return {
    kubecfgVersion: KUBECFG_VERSION,
    jsonnetVersion: JSONNET_VERSION,
    buildId: cliBuildId(),
    protocolVersion: PROTOCOL_VERSION,
    nodeVersion: process.version,
  };
}

export function versionText(v: VersionInfo, format: string): string {
  if (format === 'json') return JSON.stringify(v, null, 2) + '\n';
  return (
    `kubecfg version: ${v.kubecfgVersion}\njsonnet version: ${v.jsonnetVersion}\nbuild id: ${v.buildId}\n` +
    `protocol version: ${v.protocolVersion}\nnode version: ${v.nodeVersion}\n`
  );
}
