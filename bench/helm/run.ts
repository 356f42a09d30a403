/**
 * `bench/helm/run`: kubecfg.parseHelmChart on a generated chart the size of
 * ingress-nginx (bench/helm/chart.ts) next to our Jsonnet engine evaluating
 * a program that builds the same objects, in the same run; prints medians
 * and the ratio. Also the two cached paths of the daemon: a new render of
 * an already parsed chart (chart cache hit), and a repeated call (render
 * cache hit, a copy of the memoised result). Checks that both sides
 * produce equal objects. No assertions on time.
 */
import { deepStrictEqual } from 'node:assert/strict';
import { evaluate, parseModule } from '../../lang/jsonnet/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { clearHelmCaches, helmCacheStats, parseHelmChart } from '../../lang/helm/index.js';
import { fmtMs, median, printTable, timeMs } from '../lib/measure.js';
import { benchChart, benchJsonnet } from './chart.js';

const runs = Number(process.env.BENCH_RUNS ?? 7);

function measure(fn: () => void, before?: () => void): number {
  before?.();
  fn(); // warm-up: both sides pay JIT compilation once
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    times.push(timeMs(fn));
  }
  return median(times);
}

const tgz = benchChart();
const program = benchJsonnet('bench', 'ingress');
let helmOut: unknown;
let jsonnetOut: unknown;

// Cold: nothing cached, so the archive is unpacked and parsed and every template rendered.
const coldMs = measure(() => {
  helmOut = parseHelmChart(tgz, 'bench', 'ingress', {});
}, clearHelmCaches);
const jsonnetMs = measure(() => {
  jsonnetOut = evaluate(parseModule(new SourceFile('bench.jsonnet', program)));
});
deepStrictEqual(jsonnetOut, helmOut, 'Helm and Jsonnet outputs differ');

// Chart cached, new arguments each time: rendering only.
let n = 0;
const renderOnlyMs = measure(() => {
  parseHelmChart(tgz, 'bench', 'ingress', { bump: n++ });
});
// Same call again: the memoised result, copied out.
clearHelmCaches();
parseHelmChart(tgz, 'bench', 'ingress', {});
const hitMs = measure(() => {
  parseHelmChart(tgz, 'bench', 'ingress', {});
});
const stats = helmCacheStats();

const objects = Object.values(helmOut as Record<string, unknown[]>).reduce((s, l) => s + l.length, 0);
printTable([
  ['case', 'objects', 'parseHelmChart', 'jsonnet same objects', 'helm/jsonnet'],
  ['cold (parse + render)', String(objects), fmtMs(coldMs), fmtMs(jsonnetMs), `${(coldMs / jsonnetMs).toFixed(2)}x`],
  [
    'chart cached, render',
    String(objects),
    fmtMs(renderOnlyMs),
    fmtMs(jsonnetMs),
    `${(renderOnlyMs / jsonnetMs).toFixed(2)}x`,
  ],
  ['render cache hit', String(objects), fmtMs(hitMs), fmtMs(jsonnetMs), `${(hitMs / jsonnetMs).toFixed(2)}x`],
]);
console.log(
  `chart ${tgz.length} bytes (.tgz); render cache hits ${stats.renderHits}, chart cache hits ${stats.chartHits}`,
);
