/**
 * `bench/fmt/run`: formatting a generated 10,000-line Jsonnet file with our
 * formatter (in-process, and through the CLI and a fresh daemon when the
 * built CLI exists) against Debian's `jsonnetfmt` on the same file, in the
 * same run; checks the outputs are byte-identical and prints medians and the
 * ratios (issue 5's target: in-process at most 1.0x jsonnetfmt), in wall time
 * and in CPU time (ours: process.cpuUsage around the call, GC threads
 * included; jsonnetfmt: its rusage, read through bash's `times`). No
 * assertions on time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatJsonnet } from '../../lang/jsonnet/fmt/index.js';
import { fmtMs, median, printTable, runChild, timeMs } from '../lib/measure.js';
import { childCpu } from './child-cpu.js';
import { generatedJsonnet } from './generated.js';

const runs = Number(process.env.BENCH_RUNS ?? 5);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
const cli = join(repoRoot, 'dist/bin/kubecfg.js');
const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-fmt-'));
const env = {
  ...process.env,
  XDG_RUNTIME_DIR: join(tmp, 'run'),
  XDG_STATE_HOME: join(tmp, 'state'),
  KUBECFG_DAEMON: '',
};
let daemonStarted = false;

function onPath(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function ratio(ours: number | undefined, peer: number | undefined): string {
  return ours === undefined || peer === undefined ? '-' : `${(ours / peer).toFixed(2)}x`;
}

try {
  const text = generatedJsonnet();
  const file = join(tmp, 'big.jsonnet');
  writeFileSync(file, text);
  const lines = text.split('\n').length - 1;

  // Warm-up: the first runs pay for JIT compilation (a long-lived daemon has paid it already).
  let ours = formatJsonnet(file, text);
  for (let i = 0; i < 3; i++) ours = formatJsonnet(file, text);
  const jsonnetfmt = onPath('jsonnetfmt');
  const oursTimes: number[] = [];
  const oursCpu: number[] = [];
  const peerTimes: number[] = [];
  const peerCpu: number[] = [];
  let same = '-';
  // Rounds interleave the two legs so that a change in the machine's load weighs on both alike.
  for (let i = 0; i < runs; i++) {
    const cpu0 = process.cpuUsage();
    oursTimes.push(timeMs(() => (ours = formatJsonnet(file, text))));
    const cpu = process.cpuUsage(cpu0);
    oursCpu.push((cpu.user + cpu.system) / 1000);
    if (!jsonnetfmt) continue;
    const r = runChild(jsonnetfmt, ['--', file]);
    if (r.status !== 0) throw new Error(`jsonnetfmt failed: ${r.stderr}`);
    peerTimes.push(r.ms);
    same = r.stdout === ours ? 'yes' : 'NO';
    const c = childCpu(jsonnetfmt, ['--', file]);
    if (c && c.status === 0 && c.stdout === ours) peerCpu.push(c.cpuMs);
  }
  const inProcess = median(oursTimes);
  const inProcessCpu = median(oursCpu);
  const peerMs = peerTimes.length > 0 ? median(peerTimes) : undefined;
  const peerCpuMs = peerCpu.length > 0 ? median(peerCpu) : undefined;

  let cliMs: number | undefined;
  if (existsSync(cli)) {
    const kubecfg = (args: string[]) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.status !== 0) throw new Error(`kubecfg ${args.join(' ')} failed: ${r.stderr}`);
      return { ms, stdout: r.stdout };
    };
    kubecfg(['daemon', 'start']);
    daemonStarted = true;
    kubecfg(['fmt', file]); // warm-up: the daemon's worker compiles the formatter
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = kubecfg(['fmt', file]);
      if (r.stdout !== ours) throw new Error('kubecfg fmt through the daemon printed something else');
      times.push(r.ms);
    }
    cliMs = median(times);
  }

  console.log(`input: ${lines} lines, ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB (runs: ${runs})\n`);
  printTable([
    ['figure', 'ours', 'jsonnetfmt', 'ours/jsonnetfmt', 'same output'],
    ['format in-process (wall)', fmtMs(inProcess), fmtMs(peerMs), ratio(inProcess, peerMs), same],
    ['format in-process (CPU)', fmtMs(inProcessCpu), fmtMs(peerCpuMs), ratio(inProcessCpu, peerCpuMs), same],
    [
      'kubecfg fmt through the daemon',
      fmtMs(cliMs),
      fmtMs(peerMs),
      ratio(cliMs, peerMs),
      cliMs === undefined ? '-' : same,
    ],
  ]);
} finally {
  if (daemonStarted) spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
  rmSync(tmp, { recursive: true, force: true });
}
