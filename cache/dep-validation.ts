// Decides whether a recorded dependency set still describes the file system: the never-stale rule.
// Invariants:
//  - a dep with a digest is valid only if the file's content still hashes to that digest; stat data
//    is just the fast path that lets us skip hashing when nothing can have changed;
//  - "racily clean" deps (max(mtime, ctime) within racyWindowNs of when they were read, as in git's
//    racy-git.txt) are always re-hashed, since a same-size edit in the same timestamp tick leaves
//    every stat field but ctime equal, and ctime can be equally coarse;
//  - if the wall clock is now earlier than a dep's read time (stepped back), stat equality is not
//    trusted either;
//  - a directory-listing dep is valid only while listing it again gives the same digest;
//  - a negative dep is valid only while its path still does not exist; a probed dep only while it does;
//  - a 'link' dep (one path component, lstat) is valid only while the entry is still the same
//    symlink (same target) or still no symlink, or still absent;
//  - any I/O surprise (permission error, path turned into a FIFO) counts as invalid, never as valid.
import * as fs from 'node:fs';
import {
  linkDigest,
  recordedStat,
  sameStat,
  snapshotOf,
  wallClockNs,
  type FileDep,
  type StatSnapshot,
} from './file-dep.js';
import { hashRegularFile, hashRegularFileSync, type HashOutcome } from './regular-file-reader.js';
import { listDigest, listDigestSync, type ListOutcome } from './dir-listing.js';
import { osErrorCode } from './cache-error.js';

/** Coarsest timestamp tick we guard against (FAT: 2 s; many NFS servers: 1 s) plus clock slack. */
export const DEFAULT_RACY_WINDOW_NS = 2_000_000_000n;

export type PathProbe = { kind: 'missing' } | { kind: 'present'; stat: StatSnapshot } | { kind: 'error'; why: string };

/** What one directory entry is, symlinks not followed: absent, or its linkDigest. */
export type LinkOutcome = { kind: 'missing' } | { kind: 'entry'; digest: string } | { kind: 'error'; why: string };

export interface SyncDepIo {
  stat(path: string): PathProbe;
  hash(path: string): HashOutcome;
  list(path: string): ListOutcome;
  /** Defaults to the real file system (fake file systems of tests have no links). */
  link?(path: string): LinkOutcome;
}
export interface AsyncDepIo {
  stat(path: string): Promise<PathProbe>;
  hash(path: string): Promise<HashOutcome>;
  list(path: string): Promise<ListOutcome>;
  link?(path: string): Promise<LinkOutcome>;
}

export interface ValidationOptions<Io> {
  racyWindowNs?: bigint;
  nowNs?: () => bigint;
  /** Replaces the file system (tests count reads; nothing else should need this). */
  io?: Io;
}

export type DepsCheck =
  | {
      valid: true;
      /** deps with stat data refreshed after a confirming re-hash, if any changed */ refreshed?: FileDep[];
    }
  | { valid: false; path: string; reason: string };

type StatVerdict = { kind: 'valid' } | { kind: 'invalid'; reason: string } | { kind: 'rehash' } | { kind: 'relist' };

/** Pure: what the current stat of a dep's path says, before any hashing. */
export function verdictFromStat(dep: FileDep, probe: PathProbe, racyWindowNs: bigint, nowNs: bigint): StatVerdict {
  if (probe.kind === 'error') return { kind: 'invalid', reason: `cannot be checked: ${probe.why}` };
  if (!dep.exists)
    return probe.kind === 'missing'
      ? { kind: 'valid' }
      : { kind: 'invalid', reason: 'now exists (it did not when the result was computed)' };
  if (probe.kind === 'missing') return { kind: 'invalid', reason: 'no longer exists' };
  if (dep.digest === undefined) return { kind: 'valid' };
  // Listings are always taken again: readdir is cheap, and a directory's timestamps say
  // nothing reliable about entries renamed within one tick.
  if (dep.kind === 'dir')
    return probe.stat.isDirectory ? { kind: 'relist' } : { kind: 'invalid', reason: 'is no longer a directory' };
  if (!probe.stat.isFile) return { kind: 'invalid', reason: 'is no longer a regular file' };
  const recorded = recordedStat(dep);
  if (recorded === undefined || !sameStat(recorded, probe.stat)) return { kind: 'rehash' };
  if (isRacilyClean(dep, racyWindowNs)) return { kind: 'rehash' };
  // The clock went back since the read: an edit made now can carry the very timestamps we
  // recorded, so stat equality proves nothing.
  if (dep.readAtNs !== undefined && nowNs < dep.readAtNs) return { kind: 'rehash' };
  return { kind: 'valid' };
}

/** True when a later edit could have left size, mtime and ctime all unchanged. */
export function isRacilyClean(dep: FileDep, racyWindowNs: bigint = DEFAULT_RACY_WINDOW_NS): boolean {
  if (dep.readAtNs === undefined || dep.mtimeNs === undefined || dep.ctimeNs === undefined) return true;
  const newest = dep.mtimeNs > dep.ctimeNs ? dep.mtimeNs : dep.ctimeNs;
  return newest + racyWindowNs >= dep.readAtNs;
}

/** Pure: the outcome of re-hashing. A confirmed dep gets fresh stat data and read time. */
function verdictFromHash(
  dep: FileDep,
  outcome: HashOutcome,
  hashStartedNs: bigint,
): { valid: true; refreshed: FileDep } | { valid: false; reason: string } {
  if (outcome.kind === 'missing') return { valid: false, reason: 'no longer exists' };
  if (outcome.kind === 'unreadable') return { valid: false, reason: `cannot be re-read: ${outcome.why}` };
  if (outcome.digest !== dep.digest) return { valid: false, reason: 'content changed' };
  const { stat } = outcome;
  return {
    valid: true,
    refreshed: {
      ...dep,
      size: stat.size,
      mtimeNs: stat.mtimeNs,
      ctimeNs: stat.ctimeNs,
      ino: stat.ino,
      dev: stat.dev,
      readAtNs: hashStartedNs,
    },
  };
}

/** Pure: what the entry's lstat/readlink says now about a 'link' dep. */
function verdictFromLink(dep: FileDep, outcome: LinkOutcome): { valid: true } | { valid: false; reason: string } {
  if (outcome.kind === 'error') return { valid: false, reason: `cannot be checked: ${outcome.why}` };
  if (!dep.exists)
    return outcome.kind === 'missing'
      ? { valid: true }
      : { valid: false, reason: 'now exists (it did not when the result was computed)' };
  if (outcome.kind === 'missing') return { valid: false, reason: 'no longer exists' };
  if (outcome.digest === dep.digest) return { valid: true };
  return { valid: false, reason: 'symbolic link changed (retargeted, added or removed)' };
}

/** Reads one entry without following it. ENOTDIR counts as absent, as for stat. */
export function linkOutcomeSync(path: string): LinkOutcome {
  try {
    const st = fs.lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return { kind: 'missing' };
    return { kind: 'entry', digest: linkDigest(st.isSymbolicLink() ? fs.readlinkSync(path) : undefined) };
  } catch (err) {
    return linkFailure(err);
  }
}

async function linkOutcome(path: string): Promise<LinkOutcome> {
  try {
    const st = await fs.promises.lstat(path);
    return {
      kind: 'entry',
      digest: linkDigest(st.isSymbolicLink() ? await fs.promises.readlink(path) : undefined),
    };
  } catch (err) {
    return linkFailure(err);
  }
}

function linkFailure(err: unknown): LinkOutcome {
  const code = osErrorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  return { kind: 'error', why: err instanceof Error ? err.message : String(err) };
}

/** Pure: the outcome of listing a directory dep again. */
function verdictFromListing(dep: FileDep, outcome: ListOutcome): { valid: true } | { valid: false; reason: string } {
  if (outcome.kind === 'missing') return { valid: false, reason: 'no longer exists' };
  if (outcome.kind === 'unreadable') return { valid: false, reason: `cannot be listed again: ${outcome.why}` };
  return outcome.digest === dep.digest ? { valid: true } : { valid: false, reason: 'directory entries changed' };
}

export const realSyncIo: SyncDepIo = {
  stat(path) {
    try {
      const stats = fs.statSync(path, { bigint: true, throwIfNoEntry: false });
      return stats === undefined ? { kind: 'missing' } : { kind: 'present', stat: snapshotOf(stats) };
    } catch (err) {
      return probeFailure(err);
    }
  },
  hash: (path) => hashRegularFileSync(path),
  list: (path) => listDigestSync(path),
  link: linkOutcomeSync,
};

export const realAsyncIo: AsyncDepIo = {
  async stat(path) {
    try {
      return { kind: 'present', stat: snapshotOf(await fs.promises.stat(path, { bigint: true })) };
    } catch (err) {
      return probeFailure(err);
    }
  },
  hash: (path) => hashRegularFile(path),
  list: (path) => listDigest(path),
  link: linkOutcome,
};

function probeFailure(err: unknown): PathProbe {
  const code = osErrorCode(err);
  // ENOTDIR: a parent component is now a file, so the path does not exist. ELOOP: a symlink
  // cycle resolves to nothing, the same as the importer would see.
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'missing' };
  return { kind: 'error', why: err instanceof Error ? err.message : String(err) };
}

export function checkDepsSync(deps: readonly FileDep[], opts: ValidationOptions<SyncDepIo> = {}): DepsCheck {
  const io = opts.io ?? realSyncIo;
  const now = opts.nowNs ?? wallClockNs;
  const window = opts.racyWindowNs ?? DEFAULT_RACY_WINDOW_NS;
  let refreshed: FileDep[] | undefined;
  for (let i = 0; i < deps.length; i++) {
    const dep = deps[i]!;
    if (dep.kind === 'link') {
      const linked = verdictFromLink(dep, (io.link ?? linkOutcomeSync)(dep.path));
      if (!linked.valid) return { valid: false, path: dep.path, reason: linked.reason };
      continue;
    }
    const verdict = verdictFromStat(dep, io.stat(dep.path), window, now());
    if (verdict.kind === 'invalid') return { valid: false, path: dep.path, reason: verdict.reason };
    if (verdict.kind === 'valid') continue;
    if (verdict.kind === 'relist') {
      const listed = verdictFromListing(dep, io.list(dep.path));
      if (!listed.valid) return { valid: false, path: dep.path, reason: listed.reason };
      continue;
    }
    const started = now();
    const hashed = verdictFromHash(dep, io.hash(dep.path), started);
    if (!hashed.valid) return { valid: false, path: dep.path, reason: hashed.reason };
    refreshed ??= deps.slice();
    refreshed[i] = hashed.refreshed;
  }
  return refreshed ? { valid: true, refreshed } : { valid: true };
}

/** How many deps are checked at once: enough to hide latency, few enough not to hog libuv. */
const PARALLEL_CHECKS = 16;

export async function checkDeps(
  deps: readonly FileDep[],
  opts: ValidationOptions<AsyncDepIo> = {},
): Promise<DepsCheck> {
  const io = opts.io ?? realAsyncIo;
  const now = opts.nowNs ?? wallClockNs;
  const window = opts.racyWindowNs ?? DEFAULT_RACY_WINDOW_NS;
  let refreshed: FileDep[] | undefined;
  let failure: { valid: false; path: string; reason: string } | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < deps.length) {
      const i = next++;
      const dep = deps[i]!;
      if (dep.kind === 'link') {
        const linked = verdictFromLink(dep, await (io.link ?? linkOutcome)(dep.path));
        if (!linked.valid) {
          failure ??= { valid: false, path: dep.path, reason: linked.reason };
          return;
        }
        continue;
      }
      const verdict = verdictFromStat(dep, await io.stat(dep.path), window, now());
      if (verdict.kind === 'invalid') {
        failure ??= { valid: false, path: dep.path, reason: verdict.reason };
        return;
      }
      if (verdict.kind === 'valid') continue;
      if (verdict.kind === 'relist') {
        const listed = verdictFromListing(dep, await io.list(dep.path));
        if (!listed.valid) {
          failure ??= { valid: false, path: dep.path, reason: listed.reason };
          return;
        }
        continue;
      }
      const started = now();
      const hashed = verdictFromHash(dep, await io.hash(dep.path), started);
      if (!hashed.valid) {
        failure ??= { valid: false, path: dep.path, reason: hashed.reason };
        return;
      }
      refreshed ??= deps.slice();
      refreshed[i] = hashed.refreshed;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, deps.length) }, worker));
  if (failure) return failure;
  return refreshed ? { valid: true, refreshed } : { valid: true };
}

export async function depsStillValid(deps: FileDep[]): Promise<boolean> {
  return (await checkDeps(deps)).valid;
}

export function depsStillValidSync(deps: FileDep[]): boolean {
  return checkDepsSync(deps).valid;
}
