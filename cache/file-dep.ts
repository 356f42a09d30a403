// FileDep: what one render learned about one path, and the stat snapshot used to re-check it.
// Invariants: paths are absolute and normalised; a dep with exists=true and a digest was read
// in full (for kind 'dir': listed, and the digest covers the sorted entry names and kinds);
// exists=true without a digest was only probed (its existence matters, not its bytes);
// exists=false is a negative dependency (the path must keep not existing). A dep of kind 'link'
// is a fact about the directory entry itself, symlinks not followed (linkDigest below): a
// confined walk that expanded links read through it, so retargeting it must invalidate. Every field is a
// primitive (bigint included), so a FileDep survives structured clone between worker threads.
import type { BigIntStats } from 'node:fs';

export interface FileDep {
  path: string;
  exists: boolean;
  /**
   * 'dir' for a directory listing; 'link' for the lstat of one path component (digest from
   * linkDigest, exists=false when nothing is there); absent for files (read or probed) and negative deps.
   */
  kind?: 'dir' | 'link';
  /** sha256 hex of the content read, when the file was read. */
  digest?: string;
  size?: number;
  mtimeNs?: bigint;
  ctimeNs?: bigint;
  ino?: bigint;
  dev?: bigint;
  /** Wall-clock time (ns since the epoch) when the content was read: decides "racily clean". */
  readAtNs?: bigint;
}

/** The stat fields the fast path compares. */
export interface StatSnapshot {
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  dev: bigint;
  isFile: boolean;
  isDirectory: boolean;
}

export function snapshotOf(stats: BigIntStats): StatSnapshot {
  return {
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs,
    ctimeNs: stats.ctimeNs,
    ino: stats.ino,
    dev: stats.dev,
    isFile: stats.isFile(),
    isDirectory: stats.isDirectory(),
  };
}

export function sameStat(a: StatSnapshot, b: StatSnapshot): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.dev === b.dev;
}

/** The snapshot recorded in a dep, or undefined when the dep holds no complete stat data. */
export function recordedStat(dep: FileDep): StatSnapshot | undefined {
  if (dep.size === undefined || dep.mtimeNs === undefined || dep.ctimeNs === undefined) return undefined;
  if (dep.ino === undefined || dep.dev === undefined) return undefined;
  return {
    size: dep.size,
    mtimeNs: dep.mtimeNs,
    ctimeNs: dep.ctimeNs,
    ino: dep.ino,
    dev: dep.dev,
    isFile: true,
    isDirectory: false,
  };
}

/**
 * Wall-clock now in ns. Only millisecond-precise, which is fine: it is compared against file
 * timestamps with a racy window of whole seconds.
 */
export function wallClockNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** The digest of a 'link' dep: a symlink's target, or the fact that the entry is no symlink. */
export function linkDigest(target: string | undefined): string {
  return target === undefined ? 'not-a-symlink' : `symlink:${target}`;
}
