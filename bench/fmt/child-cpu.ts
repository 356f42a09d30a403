/**
 * CPU time (user + system) of a child process, as bash's `times` reports it
 * for its finished children (getrusage, millisecond resolution), so the
 * formatter bench compares CPU with CPU: our in-process process.cpuUsage()
 * against the peer's own rusage. Returns undefined when bash is missing or
 * its report cannot be read.
 */
import { spawnSync } from 'node:child_process';

export interface ChildCpu {
  cpuMs: number;
  stdout: string;
  status: number | null;
  stderr: string;
}

// `times` prints two lines, the shell's times then its children's: "0m0.120s 0m0.008s".
const TIMES_LINE = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;

export function childCpu(cmd: string, args: string[]): ChildCpu | undefined {
  const script = '"$@"; status=$?; times >&2; exit $status';
  const r = spawnSync('bash', ['-c', script, 'bash', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) return undefined;
  const lines = (r.stderr ?? '').trimEnd().split('\n');
  const m = TIMES_LINE.exec(lines[lines.length - 1] ?? '');
  if (!m || lines.length < 2) return undefined;
  const cpuMs = (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
  return { cpuMs, stdout: r.stdout ?? '', status: r.status, stderr: lines.slice(0, -2).join('\n') };
}
