/**
 * `bench/kcl/run`: `kcl run` of a generated myks-shaped tree (tree.ts) against our Jsonnet engine
 * computing the same values from the same data. Both outputs are checked to hold the same values
 * first. No assertions on time. BENCH_CPU=1 measures CPU time instead of wall time.
 *
 * Like is compared with like (docs/performance.md, "KCL ... like with like"):
 * - both print their output: KCL its YAML (what `kcl run` prints), Jsonnet its JSON text (what the
 *   `jsonnet` command prints), so neither leg stops at a value the other goes on to write out;
 * - cold: every file parsed, then evaluated (KCL: the tree's files; Jsonnet: its one program);
 * - parses reused: the daemon's parse cache when only evaluation reruns (both engines evaluate a
 *   parsed tree);
 * - each of those four legs warms up alike (BENCH_WARMUPS runs, default 10) before BENCH_RUNS
 *   measured runs (default 11): what a run costs in a render worker that has run before. Without
 *   that, the first leg measured pays for compiling the engine's code (the parser's too), which
 *   the legs after it then reuse;
 * - each engine's legs run in processes of their own (BENCH_PROCS per engine, default 5,
 *   alternating), so neither runs on a heap the other sized and filled. The median over the
 *   processes is printed, and the range under it: a process's figure flips between two modes,
 *   by when in a run its scavenges fall (docs/performance.md), for either engine;
 * - first run: one run in a fresh process (modules loaded, nothing compiled yet): what the first
 *   run after the daemon starts costs. BENCH_FIRST processes per engine (default 5), alternating.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { evaluateToString, parseSnippet } from '../../lang/jsonnet/index.js';
import { parseModule, runKcl, type KclHost, type Module } from '../../lang/kcl/index.js';
import { memoryHost } from '../../lang/kcl/memory-host.js';
import { fmtMs, median, printTable } from '../lib/measure.js';
import { APPS, ENVS, jsonnetProgram, kclTree } from './tree.js';

const runs = Number(process.env.BENCH_RUNS ?? 11);
const warmups = Number(process.env.BENCH_WARMUPS ?? 10);
const firstRuns = Number(process.env.BENCH_FIRST ?? 5);
const procs = Number(process.env.BENCH_PROCS ?? 5);
const useCpu = process.env.BENCH_CPU === '1';

/** Wall and CPU (user + system, every thread of the process) time of fn. */
function clocks(fn: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

function measure(fn: () => void): number {
  for (let i = 0; i < warmups; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = clocks(fn);
    times.push(useCpu ? t.cpu : t.wall);
  }
  return median(times);
}

/** Key-order-insensitive equality of two JSON values. */
function sameValues(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValues(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      ka.join() === kb.join() &&
      ka.every((k) => sameValues((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

const files = kclTree();
const host = memoryHost(files);
const code = jsonnetProgram();
const kclRun = (h: KclHost): string => runKcl(h, { paths: ['/t/main.k'] });
const jsonnetRun = (m: ReturnType<typeof parseSnippet>): string => evaluateToString(m) as string;

/** The legs of one engine in this process: [cold, parses reused]. */
function steadyLegs(engine: string): [number, number] {
  if (engine === 'jsonnet') {
    const cold = measure(() => jsonnetRun(parseSnippet('bench.jsonnet', code)));
    const module = parseSnippet('bench.jsonnet', code);
    return [cold, measure(() => jsonnetRun(module))];
  }
  const cold = measure(() => kclRun(host));
  // The daemon's warm path: files unchanged since the last run, so their parses are reused.
  const parsed = new Map<string, Module>();
  const warmHost: KclHost = {
    ...host,
    parse: (path, text) => {
      let m = parsed.get(path);
      if (!m) parsed.set(path, (m = parseModule(path, text)));
      return m;
    },
  };
  return [cold, measure(() => kclRun(warmHost))];
}

// Children: `--first ENGINE` times one first run; `--steady ENGINE` measures that engine's legs.
const childArg = process.argv.findIndex((a) => a === '--first' || a === '--steady');
if (childArg >= 0) {
  const engine = process.argv[childArg + 1]!;
  if (process.argv[childArg] === '--steady') process.stdout.write(JSON.stringify(steadyLegs(engine)) + '\n');
  else {
    const t = clocks(() => (engine === 'kcl' ? kclRun(host) : jsonnetRun(parseSnippet('bench.jsonnet', code))));
    process.stdout.write(JSON.stringify(useCpu ? t.cpu : t.wall) + '\n');
  }
  process.exit(0);
}

const kclOut = JSON.parse(runKcl(host, { paths: ['/t/main.k'], format: 'json' }));
const jsonnetOut: unknown = JSON.parse(jsonnetRun(parseSnippet('bench.jsonnet', code)));
if (!sameValues(kclOut, jsonnetOut)) {
  console.error('kcl and jsonnet disagree on the values');
  process.exit(1);
}

/** Runs this file as a child measuring `what` (each engine in processes of its own: neither runs on the heap the other left). */
function child<T>(what: '--first' | '--steady', engine: string): T {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, [...process.execArgv, self, what, engine], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench child (${what} ${engine}) failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
const steady: Record<string, [number, number][]> = { kcl: [], jsonnet: [] };
for (let i = 0; i < procs; i++)
  for (const engine of ['kcl', 'jsonnet']) steady[engine]!.push(child('--steady', engine));
const legMedian = (engine: string, leg: 0 | 1): number => median(steady[engine]!.map((r) => r[leg]));
const kclCold = legMedian('kcl', 0);
const kclParsed = legMedian('kcl', 1);
const jsonnetCold = legMedian('jsonnet', 0);
const jsonnetParsed = legMedian('jsonnet', 1);
const firstKcl: number[] = [];
const firstJsonnet: number[] = [];
for (let i = 0; i < firstRuns; i++) {
  firstKcl.push(child('--first', 'kcl'));
  firstJsonnet.push(child('--first', 'jsonnet'));
}

const kLines = Object.values(files).reduce((n, t) => n + t.split('\n').length, 0);
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
console.log(
  `myks tree ${ENVS} x ${APPS}: ${Object.keys(files).length} KCL files, ${kLines} lines; Jsonnet: one program of ` +
    `${code.split('\n').length} lines. ${useCpu ? 'CPU' : 'wall'} time: each leg the median of ${runs} runs after ` +
    `${warmups} warm-ups, in ${procs} processes per engine (the median of those); first run: median of ` +
    `${firstRuns} fresh processes per engine.`,
);
const rows = [
  ['leg', 'kcl run', 'jsonnet', 'kcl/jsonnet'],
  ['cold (every file parsed)', fmtMs(kclCold), fmtMs(jsonnetCold), ratio(kclCold, jsonnetCold)],
  ['parses reused', fmtMs(kclParsed), fmtMs(jsonnetParsed), ratio(kclParsed, jsonnetParsed)],
];
if (firstRuns > 0) {
  const fk = median(firstKcl);
  const fj = median(firstJsonnet);
  rows.push(['first run (fresh process)', fmtMs(fk), fmtMs(fj), ratio(fk, fj)]);
}
// A process's figures flip between two modes (docs/performance.md: when the scavenge falls in a
// run), so the spread over the processes is shown under the medians.
const range = (xs: number[]): string => `${fmtMs(Math.min(...xs))}-${fmtMs(Math.max(...xs))}`;
const spread = (leg: 0 | 1): string[] => ['kcl', 'jsonnet'].map((e) => range(steady[e]!.map((r) => r[leg])));
rows.push(['  cold, range', ...spread(0), '']);
rows.push(['  reused, range', ...spread(1), '']);
printTable(rows);
