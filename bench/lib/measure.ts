/**
 * Measuring helpers for the benchmarks: medians of repeated runs, and peak
 * RSS of a child process read from GNU time (`/usr/bin/time -f %M`), so our
 * figure and the peer's come from the same method in the same run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function timeMs(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export interface ChildRun {
  ms: number;
  peakRssKb: number | undefined;
  stdout: string;
  status: number | null;
  stderr: string;
}

const GNU_TIME = '/usr/bin/time';

/** Runs a command, timing it and reading its peak RSS when GNU time is available. */
export function runChild(cmd: string, args: string[], opts: { cwd?: string; input?: string } = {}): ChildRun {
  const withTime = existsSync(GNU_TIME);
  const argv = withTime ? ['-f', '__PEAK_RSS_KB=%M', cmd, ...args] : args;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(withTime ? GNU_TIME : cmd, argv, {
    cwd: opts.cwd,
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  let stderr = r.stderr ?? '';
  let peakRssKb: number | undefined;
  const m = /__PEAK_RSS_KB=(\d+)\s*$/.exec(stderr);
  if (m) {
    peakRssKb = Number(m[1]);
    stderr = stderr.slice(0, m.index);
  }
  return { ms, peakRssKb, stdout: r.stdout ?? '', status: r.status, stderr };
}

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined) return '-';
  return ms >= 100 ? `${ms.toFixed(0)}ms` : `${ms.toFixed(1)}ms`;
}

export function fmtKb(kb: number | undefined): string {
  return kb === undefined ? '-' : `${(kb / 1024).toFixed(1)}MiB`;
}

export function printTable(rows: string[][]): void {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  for (const r of rows)
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
}
