/**
 * `kubecfg features [-o json]` output. The text table is laid out as Go's
 * tabwriter lays it out for kubecfg (padding 2, last column unpadded), so the
 * column widths follow the longest cell, as in RFC05's examples.
 */
import type { Gates } from './gates.js';

const HEADER = ['NAME', 'STAGE', 'DEFAULT', 'ENABLED', 'SOURCE', 'SINCE'];

export function featuresTable(gates: Gates): string {
  const rows = gates
    .list()
    .map((r) => [
      r.feature.name,
      r.feature.stage,
      r.feature.stage === 'beta' || r.feature.stage === 'GA' ? 'on' : 'off',
      r.enabled ? 'on' : 'off',
      r.source,
      r.feature.since,
    ]);
  return tabulate([HEADER, ...rows]);
}

export function featuresJson(gates: Gates): string {
  const data = gates.list().map((r) => ({
    name: r.feature.name,
    stage: r.feature.stage,
    kind: r.feature.kind,
    default: r.feature.stage === 'beta' || r.feature.stage === 'GA',
    enabled: r.enabled,
    source: r.source,
    since: r.feature.since,
    doc: r.feature.doc,
  }));
  return JSON.stringify(data, null, 2) + '\n';
}

/** Go tabwriter with minwidth 0, padding 2, padchar ' ': each column as wide as its longest cell + 2. */
export function tabulate(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]! + 2))).join(''))
    .join('\n')
    .concat('\n');
}
