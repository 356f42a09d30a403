/**
 * Issue 22, targets 1-4: what a user waits for when no daemon is warm, each
 * row ours next to its peer from the same run (medians; no timing asserted):
 *   1. one-shot floor: `kubecfg --no-daemon jsonnet` of a file holding `1`, against `node -e 0`;
 *   2. small programs (inheritance, the 300-file import graph), one-shot, against go-jsonnet's process;
 *   3. BENCH_EXTERNAL cases (e.g. kube-prometheus), one-shot, against go-jsonnet, same bytes required;
 *   4. first call (no daemon running) against `--no-daemon` on the same input.
 * Ours is the command users run, dist/bin/kubecfg (the wrapper that starts Node from the startup
 * snapshot for in-process renders); BENCH_CLI names another build's dist/bin/kubecfg, or a
 * dist/bin/kubecfg.js to run with plain `node` (a build without the snapshot, e.g. for "before").
 * go-jsonnet is BENCH_GO_JSONNET, else `go-jsonnet` on PATH (rows 2-3 say "no peer" without it).
 * Wall time moves with the machine's load, so every row also gives CPU time (user + system of
 * the child, from /proc/self/stat), which the load barely changes; the load average is printed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jpathArgs, parseExternalCases, type BenchCase } from '../jsonnet/external-cases.js';
import { writeImportGraph } from '../jsonnet/import-graph.js';
import { fmtMs, median, printTable } from '../lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
// BENCH_CLI: another build's CLI (e.g. main's, for a before/after in the same minutes).
const cli = process.env.BENCH_CLI
  ? resolve(process.env.BENCH_CLI)
  : join(repoRoot, existsSync(join(repoRoot, 'dist/bin/kubecfg')) ? 'dist/bin/kubecfg' : 'dist/bin/kubecfg.js');
/** How to run `cli ARGS`: a .js bundle through this Node, the wrapper as it is. */
const [cliCmd, cliPre]: [string, string[]] = cli.endsWith('.js') ? [process.execPath, [cli]] : [cli, []];
const runs = Number(process.env.BENCH_RUNS ?? 5);
const bigRuns = Math.min(runs, 3);
const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-startup-'));
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('KUBECFG_')) env[k] = v;
env.XDG_RUNTIME_DIR = join(tmp, 'run');
env.XDG_STATE_HOME = join(tmp, 'state');
mkdirSync(env.XDG_RUNTIME_DIR, { mode: 0o700 });

const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** CPU time (user + system, ms) of every waited-for child so far (fields 16-17 of proc(5)). */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[16 - 3]) + Number(fields[17 - 3])) * 1000) / clockTicks;
}

interface Measured {
  ms: number;
  cpuMs: number;
  out: string;
  ok: boolean;
}

function measure(cmd: string, args: string[], n: number, between?: () => void): Measured {
  const walls: number[] = [];
  const cpus: number[] = [];
  let out = '';
  let ok = true;
  for (let i = 0; i < n; i++) {
    const c0 = childrenCpuMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { env, encoding: 'utf8', maxBuffer: 1 << 30 });
    walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    cpus.push(childrenCpuMs() - c0);
    out = r.stdout ?? '';
    ok &&= r.status === 0;
    if (r.status !== 0) process.stderr.write(`${cmd} ${args.join(' ')}: exit ${r.status}: ${r.stderr}\n`);
    between?.();
  }
  return { ms: median(walls), cpuMs: median(cpus), out, ok };
}

function onPath(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function kubecfg(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(cliCmd, [...cliPre, ...args], { env, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

/** After a first call: wait for the daemon it started, then stop it, so the next run finds none. */
function stopStartedDaemon(): void {
  const deadline = Date.now() + 30_000;
  while (kubecfg(['daemon', 'status']).status !== 0) {
    if (Date.now() > deadline) throw new Error('the first call did not leave a daemon within 30 s');
    spawnSync('sleep', ['0.05']);
  }
  const stop = kubecfg(['daemon', 'stop']);
  if (stop.status !== 0) throw new Error(`kubecfg daemon stop: ${stop.stderr}`);
}

const rows: string[][] = [
  ['target', 'case', 'ours', 'peer', 'peer time', 'ours/peer', 'CPU ours/peer', 'goal', 'same'],
];
function row(target: string, name: string, ours: Measured, peerName: string, peer: Measured, goal: number): void {
  const ratio = ours.ms / peer.ms;
  const same = peerName === 'node -e 0' ? '-' : ours.ok && peer.ok && ours.out === peer.out ? 'yes' : 'NO';
  rows.push([
    target,
    name,
    fmtMs(ours.ms),
    peerName,
    fmtMs(peer.ms),
    `${ratio.toFixed(2)}x`,
    `${(ours.cpuMs / peer.cpuMs).toFixed(2)}x`,
    `<= ${goal.toFixed(2)}x ${ratio <= goal ? 'met' : 'NOT met'}`,
    same,
  ]);
}

try {
  if (kubecfg(['version']).status !== 0) throw new Error(`${cli} does not run: build first (npm run build)`);
  const goJsonnet = process.env.BENCH_GO_JSONNET || onPath('go-jsonnet');
  const one = join(tmp, 'one.jsonnet');
  writeFileSync(one, '1\n');
  const small: BenchCase[] = [
    { name: 'inheritance', file: join(repoRoot, 'bench/jsonnet/inheritance.jsonnet'), jpath: [], external: false },
    { name: 'import-graph-300', file: writeImportGraph(join(tmp, 'graph')), jpath: [], external: false },
  ];
  const external = parseExternalCases(process.env.BENCH_EXTERNAL);
  const oneShot = (c: { file: string; jpath: string[] }): string[] => [
    ...cliPre,
    '--no-daemon',
    'jsonnet',
    ...jpathArgs(c.jpath),
    c.file,
  ];

  // Each command runs once unmeasured first: the engine's code cache is then the one of this Node.
  measure(cliCmd, oneShot({ file: one, jpath: [] }), 1);
  row(
    '1 one-shot floor',
    '`1`',
    measure(cliCmd, oneShot({ file: one, jpath: [] }), runs),
    'node -e 0',
    measure(process.execPath, ['-e', '0'], runs),
    2,
  );

  const withPeer = (target: string, cases: BenchCase[], n: number, goal: number): void => {
    for (const c of cases) {
      const ours = measure(cliCmd, oneShot(c), n);
      if (!goJsonnet) {
        rows.push([target, c.name, fmtMs(ours.ms), 'go-jsonnet', 'no peer', '-', '-', `<= ${goal.toFixed(2)}x`, '-']);
        continue;
      }
      row(target, c.name, ours, 'go-jsonnet', measure(goJsonnet, [...jpathArgs(c.jpath), c.file], n), goal);
    }
  };
  withPeer('2 small programs', small, runs, 1);
  withPeer('3 real world', external, bigRuns, 0.15);

  for (const c of [{ name: '`1`', file: one, jpath: [], external: false }, ...small, ...external]) {
    const n = c.external ? bigRuns : runs;
    const noDaemon = measure(cliCmd, oneShot(c), n);
    const first = measure(cliCmd, [...cliPre, 'jsonnet', ...jpathArgs(c.jpath), c.file], n, stopStartedDaemon);
    row('4 first call', `${c.name}, first call`, first, '--no-daemon', noDaemon, 1);
  }
  printTable(rows);
  console.log(`ours: ${cli}`);
  console.log(
    `(medians of ${runs} runs, ${bigRuns} for real-world cases; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${spawnSync('nproc', { encoding: 'utf8' }).stdout.trim()} cores)`,
  );
} finally {
  kubecfg(['daemon', 'stop']);
  rmSync(tmp, { recursive: true, force: true });
}
