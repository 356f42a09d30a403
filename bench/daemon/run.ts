/**
 * The daemon's speed figures (issue "Foundation"), each next to its peer
 * from the same run; no timing is asserted:
 * - client overhead: warm `kubecfg show` of a cached result vs `node -e 0`;
 * - repeated show on a generated 300-file repository (~1,000 objects): cold
 *   first show, then after editing one leaf file (a comment appended; then a
 *   value changed, which changes the output of the ~215 files above it), then
 *   an unchanged repeat, each as a fraction of the cold time, with Debian's
 *   `jsonnet` evaluating the same files as the outside reference;
 * - the daemon's resident memory afterwards, as `kubecfg daemon status` reports it.
 * Wall times on a shared machine move with its load, so the client overhead
 * is also given as CPU time (the CLI process alone against `node -e 0`, from
 * the children's times in /proc/self/stat), which the load barely changes.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { fmtMs, median, printTable, runChild } from '../lib/measure.js';
import { writeRepo } from './repo.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
const cli = join(repoRoot, 'dist/bin/kubecfg.js');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-daemon-'));
const env = {
  ...process.env,
  XDG_RUNTIME_DIR: join(tmp, 'run'),
  XDG_STATE_HOME: join(tmp, 'state'),
  KUBECFG_DAEMON: '',
};

const clockTicksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU time (user + system, ms) of every waited-for child so far; undefined without /proc. */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5) (cutime, cstime), counted from the state field (3).
    const ticks = Number(fields[16 - 3]) + Number(fields[17 - 3]);
    return (ticks * 1000) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

function kubecfg(args: string[]): { ms: number; out: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`kubecfg ${args.join(' ')} failed: ${r.stderr}`);
  return { ms, out: r.stdout };
}

try {
  const repo = writeRepo(join(tmp, 'repo'));
  // Files written in the last seconds are "racily clean" (docs/cache.md) and re-hashed on every
  // check; a real repository's files are older than that, so let the generated ones age first.
  await new Promise((r) => setTimeout(r, 3000));
  const objects = (kubecfg(['--no-daemon', 'show', '-o', 'json', repo.main]).out.match(/"kind"/g) ?? []).length;

  kubecfg(['daemon', 'start']);
  const cold = kubecfg(['show', repo.main]).ms;
  // `node -e 0` and the warm show alternate, so a change of load weighs on both sides alike.
  const nodeTimes: number[] = [];
  const warmTimes: number[] = [];
  const cpu = { node: 0, show: 0, known: true };
  for (let i = 0; i < Math.max(runs * 2, 10); i++) {
    const c0 = childrenCpuMs();
    // Spawned like the CLI (no GNU time wrapper), so both sides pay the same spawn costs.
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    nodeTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const c1 = childrenCpuMs();
    warmTimes.push(kubecfg(['show', repo.main]).ms);
    const c2 = childrenCpuMs();
    if (c0 === undefined || c1 === undefined || c2 === undefined) cpu.known = false;
    else {
      cpu.node += c1 - c0;
      cpu.show += c2 - c1;
    }
  }
  const nodeStart = median(nodeTimes);
  const warmCached = median(warmTimes);
  const nodeCpu = cpu.known ? cpu.node / nodeTimes.length : undefined;
  const showCpu = cpu.known ? cpu.show / warmTimes.length : undefined;
  const edits: number[] = [];
  for (let i = 0; i < runs; i++) {
    appendFileSync(repo.leaf, `// edit ${i}\n`);
    edits.push(kubecfg(['show', repo.main]).ms);
  }
  const edited = median(edits);
  const valueEdits: number[] = [];
  for (let i = 0; i < runs; i++) {
    // The leaf's weight feeds `replicas` and a ConfigMap in every file that imports it, transitively.
    writeFileSync(repo.leaf, readFileSync(repo.leaf, 'utf8').replace(/weight:: \d+/, `weight:: ${100 + i}`));
    valueEdits.push(kubecfg(['show', repo.main]).ms);
  }
  const valueEdited = median(valueEdits);
  const peer = median(Array.from({ length: Math.min(runs, 3) }, () => runChild('jsonnet', [repo.main]).ms));
  const status = kubecfg(['daemon', 'status']).out;

  console.log(`generated repository: 300 files, ${objects} objects\n`);
  printTable([
    ['figure', 'ours', 'reference', 'ratio', 'target'],
    [
      'warm show (cached) vs node -e 0',
      fmtMs(warmCached),
      fmtMs(nodeStart),
      (warmCached / nodeStart).toFixed(2) + 'x',
      '<= 1.5x',
    ],
    [
      'CLI CPU of a warm show vs node -e 0 CPU',
      fmtMs(showCpu),
      fmtMs(nodeCpu),
      showCpu !== undefined && nodeCpu ? (showCpu / nodeCpu).toFixed(2) + 'x' : '-',
      '-',
    ],
    [
      'show after a one-file edit vs cold show',
      fmtMs(edited),
      fmtMs(cold),
      ((edited / cold) * 100).toFixed(1) + '%',
      '<= 10%',
    ],
    [
      'show after a one-value edit vs cold show',
      fmtMs(valueEdited),
      fmtMs(cold),
      ((valueEdited / cold) * 100).toFixed(1) + '%',
      '<= 10%',
    ],
    [
      'unchanged repeat vs cold show',
      fmtMs(warmCached),
      fmtMs(cold),
      ((warmCached / cold) * 100).toFixed(1) + '%',
      '<= 2%',
    ],
    ['cold show vs Debian jsonnet (same files)', fmtMs(cold), fmtMs(peer), (cold / peer).toFixed(2) + 'x', '-'],
  ]);
  console.log('\ndaemon status after the benchmark:');
  console.log(status.trimEnd());
} finally {
  spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
  rmSync(tmp, { recursive: true, force: true });
}
