/**
 * The daemon lock (hazard 28): `daemon.lock` exists exactly while one daemon
 * owns the runtime dir. Only the owner touches the socket file, so removing a
 * stale socket is race-free: there is no probe-then-unlink window between
 * competing starters.
 *
 * Acquire: write our identity to a temp file, then link(2) it to the lock
 * path: atomic, fails with EEXIST, and the lock is never seen half-written.
 * A lock whose holder is dead (pid gone, or pid reused by a process with a
 * different start time) is stale. Breaking it is guarded by `daemon.lock.break`
 * (O_EXCL): the breaker re-reads the lock under that guard and unlinks it only
 * if it still holds the very content judged stale (pid + start time + nonce),
 * so a fresh lock created meanwhile is never removed.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import type { DaemonPaths } from '../client-cli/paths.js';
import { procStatFields, processAlive } from '../client-cli/process-state.js';

export interface LockHolder {
  pid: number;
  /** Process start time from /proc (clock ticks since boot), when the OS exposes it. */
  procStart: string | null;
  nonce: string;
}

export type LockResult = { acquired: true; release: () => void } | { acquired: false; holderPid: number };

/** A break guard older than this was left by a crashed breaker. */
const BREAK_GUARD_STALE_MS = 10_000;

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot). */
export function procStartTime(pid: number): string | null {
  return procStatFields(pid)?.[19] ?? null;
}

export function holderAlive(holder: LockHolder): boolean {
  // processAlive treats a zombie (killed, not yet reaped) as dead: it holds nothing.
  if (!processAlive(holder.pid)) return false;
  if (holder.procStart === null) return true;
  const now = procStartTime(holder.pid);
  return now === null || now === holder.procStart;
}

function readHolder(path: string): { text: string; holder: LockHolder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const raw = JSON.parse(text) as Partial<LockHolder>;
    if (typeof raw.pid === 'number' && typeof raw.nonce === 'string') {
      return {
        text,
        holder: { pid: raw.pid, procStart: typeof raw.procStart === 'string' ? raw.procStart : null, nonce: raw.nonce },
      };
    }
  } catch {
    // fall through: unreadable content is treated as a dead holder
  }
  return { text, holder: null };
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Removes the lock only if it still has exactly `staleText`. Returns false when someone else is breaking it. */
function breakStaleLock(paths: DaemonPaths, staleText: string): boolean {
  let fd: number;
  try {
    fd = openSync(paths.lockBreak, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      if (Date.now() - statSync(paths.lockBreak).mtimeMs > BREAK_GUARD_STALE_MS) unlinkQuiet(paths.lockBreak);
    } catch {
      // vanished meanwhile
    }
    return false;
  }
  try {
    const current = readHolder(paths.lock);
    if (current && current.text === staleText) unlinkQuiet(paths.lock);
    return true;
  } finally {
    closeSync(fd);
    unlinkQuiet(paths.lockBreak);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function acquireDaemonLock(paths: DaemonPaths): LockResult {
  const me: LockHolder = {
    pid: process.pid,
    procStart: procStartTime(process.pid),
    nonce: randomBytes(16).toString('hex'),
  };
  const myText = JSON.stringify(me) + '\n';
  const tmp = `${paths.lock}.${process.pid}.${me.nonce.slice(0, 8)}`;
  writeFileSync(tmp, myText, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        linkSync(tmp, paths.lock);
        const release = (): void => {
          const current = readHolder(paths.lock);
          if (current?.text === myText) unlinkQuiet(paths.lock);
        };
        return { acquired: true, release };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = readHolder(paths.lock);
      if (seen === null) continue; // released between our link and read: try again
      if (seen.holder && holderAlive(seen.holder)) return { acquired: false, holderPid: seen.holder.pid };
      if (!breakStaleLock(paths, seen.text)) sleepSync(20);
    }
    throw new Error(`could not take the daemon lock ${paths.lock} after 50 attempts`);
  } finally {
    unlinkQuiet(tmp);
  }
}
