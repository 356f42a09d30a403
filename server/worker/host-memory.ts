/**
 * The memory watchdog's measures for render host processes. V8's heap limit
 * does not count external string data, ArrayBuffers or a one-step overshoot,
 * so the daemon also caps each busy host's resident set, read from /proc
 * (Linux; elsewhere the V8 limit alone applies).
 */
import { readFileSync } from 'node:fs';

const MiB = 1024 * 1024;

/**
 * Resident-set cap of a host for a worker heap limit of `memoryMb`: the heap
 * may legitimately reach about 1.25 × its old-space limit (young generation,
 * code space), plus Node's own baseline; the rest is slack for external data.
 */
export function rssCapBytes(memoryMb: number): number {
  return Math.round(memoryMb * 1.5 + 256) * MiB;
}

/** The resident set of `pid` in bytes, or null if it cannot be read (gone, or not Linux). */
export function hostRssBytes(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The proportional set size of `pid` (its resident pages, each shared page divided among the
 * processes sharing it), or its RSS where smaps_rollup cannot be read. Summing RSS over the daemon
 * and its render hosts counts the Node binary's pages once per process; summing PSS does not.
 */
export function processPssBytes(pid: number): number | null {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux, or too old a kernel: fall back
  }
  return hostRssBytes(pid);
}

/** How much of a host's stderr is kept: enough for V8's fatal report, bounded whatever the host prints. */
export const STDERR_TAIL_BYTES = 4096;

/** True when a host's stderr ends with V8's fatal out-of-memory report. */
export function looksLikeV8OutOfMemory(stderr: string): boolean {
  return /JavaScript heap out of memory|Reached heap limit|Fatal (process|JavaScript) out of memory|invalid table size Allocation failed/i.test(
    stderr,
  );
}
