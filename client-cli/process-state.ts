/**
 * Is a process alive? `kill(pid, 0)` alone says yes for a zombie (a killed
 * daemon its parent has not reaped yet, common in containers whose PID 1 does
 * not reap), so on Linux we also read the state letter from /proc. Shared by
 * the CLI (waiting for an old daemon to stop) and the daemon's lock.
 */
import { readFileSync } from 'node:fs';

/** Fields of /proc/PID/stat after the command name (which may contain spaces); null off Linux or if gone. */
export function procStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = procStatFields(pid)?.[0];
  return state !== 'Z' && state !== 'X';
}
