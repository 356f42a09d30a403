// DependencyRecorder: the file-system view of one render. Every read, directory listing and
// existence probe goes through it, so the result can be cached with the exact set of facts it depended on.
// Invariants:
//  - within one recorder a path always gives the same answer (go-jsonnet's Importer contract):
//    bytes are read (and directories listed) once and handed out again; a path found missing
//    stays missing;
//  - paths are recorded absolute and normalised;
//  - an unreadable path (FIFO, device, permission error) is recorded with a digest no file can
//    have, so a result that depended on it is never served from cache; so is a file whose stat
//    cannot prove it unchanged (procfs, sysfs: pseudo-fs.ts);
//  - recordLink records what one path component is (symlink target, or no symlink), for readers
//    that expand links themselves (the --root walk) and so read a path other than the one named.
import * as fs from 'node:fs';
import { resolve } from 'node:path';
import { CacheFileError, osErrorCode } from './cache-error.js';
import { digestOf } from './digest.js';
import { linkDigest, wallClockNs, type FileDep } from './file-dep.js';
import { statCannotProveUnchanged } from './pseudo-fs.js';
import { DEFAULT_MAX_FILE_BYTES, readRegularFileSync, statRegularFileSync } from './regular-file-reader.js';
import type { FileContentCache } from './file-content-cache.js';
import { listDirSync, listingDigest, type DirEntryInfo } from './dir-listing.js';

/** Prefix of directory-listing keys: cannot start an absolute path. */
const LISTING_KEY = 'dir\0';
/** Prefix of link (lstat) keys. */
const LINK_KEY = 'link\0';

/** Not hex, so never equal to a real sha256 digest: makes the dep permanently invalid. */
export const UNREADABLE_DIGEST = 'unreadable';
/** recordLink's "could not tell what the entry is". */
export const UNREADABLE_LINK = Symbol('unreadable link');

export interface DependencyRecorderOptions {
  /** Largest file readFile accepts (default 512 MiB). */
  maxFileBytes?: number;
  /** Wall clock in ns; injected by tests that simulate clock steps. */
  nowNs?: () => bigint;
  /**
   * Bytes read by earlier recorders, served again when the file's stat proves it unchanged
   * (file-content-cache.ts). Defaults to the process-wide one set by useSharedContentCache,
   * unless a clock is injected.
   */
  contentCache?: FileContentCache;
}

let sharedContentCache: FileContentCache | undefined;
let hashReads = true;

/**
 * Makes the recorders of this process stop hashing what they read: their deps then carry
 * UNREADABLE_DIGEST (never valid again), which is right for a process that renders once and
 * exits (server/oneshot-run.ts) and throws its deps away. A sha256 of every file read was
 * ~13 ms of kube-prometheus's one-shot. The daemon never calls it.
 */
export function stopHashingReads(): void {
  hashReads = false;
}

/** Makes every recorder of this process (with the real clock) share `cache`; a daemon worker does. */
export function useSharedContentCache(cache: FileContentCache | undefined): void {
  sharedContentCache = cache;
}

type Entry = { dep: FileDep; bytes?: Uint8Array; listing?: DirEntryInfo[]; error?: CacheFileError };

export class DependencyRecorder {
  /** File facts keyed by path; directory listings keyed by LISTING_KEY + path (a path can be both probed and listed). */
  private readonly entries = new Map<string, Entry>();
  private readonly maxFileBytes: number;
  private readonly nowNs: () => bigint;
  private readonly contentCache: FileContentCache | undefined;
  private filesRead = 0;
  private bytesRead = 0;

  constructor(opts: DependencyRecorderOptions = {}) {
    this.maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.nowNs = opts.nowNs ?? wallClockNs;
    this.contentCache = opts.contentCache ?? (opts.nowNs ? undefined : sharedContentCache);
  }

  /** Reads a regular file (symlinks followed), records its digest and stat. Throws CacheFileError. */
  readFile(path: string): Uint8Array {
    const abs = resolve(path);
    const known = this.entries.get(abs);
    if (known?.bytes) return known.bytes;
    if (known?.error) throw known.error;
    if (known && !known.dep.exists) throw new CacheFileError('CACHE_FILE_NOT_FOUND', abs, 'no such file');
    // Taken before reading: an edit that lands during the read then counts as racy.
    const readAtNs = this.nowNs();
    if (this.contentCache) {
      const hit = this.cachedRead(abs, readAtNs);
      if (hit) return hit;
    }
    try {
      const { bytes, stat } = readRegularFileSync(abs, this.maxFileBytes);
      if (statCannotProveUnchanged(stat, bytes.byteLength)) {
        // Served to this render, but no result that read it may be reused, and no later read
        // may be answered from the content cache.
        this.entries.set(abs, { dep: { path: abs, exists: true, digest: UNREADABLE_DIGEST }, bytes });
        this.filesRead++;
        this.bytesRead += bytes.byteLength;
        return bytes;
      }
      if (!hashReads) {
        this.entries.set(abs, { dep: { path: abs, exists: true, digest: UNREADABLE_DIGEST }, bytes });
        this.filesRead++;
        this.bytesRead += bytes.byteLength;
        return bytes;
      }
      const dep: FileDep = {
        path: abs,
        exists: true,
        digest: digestOf(bytes),
        size: stat.size,
        mtimeNs: stat.mtimeNs,
        ctimeNs: stat.ctimeNs,
        ino: stat.ino,
        dev: stat.dev,
        readAtNs,
      };
      this.entries.set(abs, { dep, bytes });
      this.filesRead++;
      this.bytesRead += bytes.byteLength;
      this.contentCache?.remember(abs, { bytes, dep: { ...dep } });
      return bytes;
    } catch (err) {
      if (!(err instanceof CacheFileError)) throw err;
      const dep: FileDep =
        err.code === 'CACHE_FILE_NOT_FOUND'
          ? { path: abs, exists: false }
          : { path: abs, exists: true, digest: UNREADABLE_DIGEST };
      this.entries.set(abs, { dep, error: err.code === 'CACHE_FILE_NOT_FOUND' ? undefined : err });
      throw err;
    }
  }

  /** The bytes of an earlier read whose stat still matches (one stat instead of a read and a hash). */
  private cachedRead(abs: string, nowNs: bigint): Uint8Array | undefined {
    let stat;
    try {
      stat = statRegularFileSync(abs);
    } catch {
      return undefined; // the full read reports (and records) the problem
    }
    if (stat.size > this.maxFileBytes) return undefined;
    const hit = this.contentCache!.lookup(abs, stat, nowNs);
    if (!hit) return undefined;
    this.entries.set(abs, { dep: { ...hit.dep }, bytes: hit.bytes });
    this.filesRead++;
    this.bytesRead += hit.bytes.byteLength;
    return hit.bytes;
  }

  /** Does the path exist (symlinks followed)? Absence is recorded as a negative dependency. */
  probe(path: string): boolean {
    const abs = resolve(path);
    const known = this.entries.get(abs);
    if (known) return known.dep.exists && known.error === undefined;
    let exists: boolean;
    try {
      exists = fs.statSync(abs, { throwIfNoEntry: false }) !== undefined;
    } catch (err) {
      if (osErrorCode(err) === 'ENOTDIR') {
        // A parent is a file: the path does not exist, and must keep not existing.
        this.entries.set(abs, { dep: { path: abs, exists: false } });
        return false;
      }
      // ELOOP, EACCES...: the importer cannot use the path. Recorded as unreadable so no result
      // depending on this answer is reused.
      this.entries.set(abs, { dep: { path: abs, exists: true, digest: UNREADABLE_DIGEST } });
      return false;
    }
    this.entries.set(abs, { dep: exists ? { path: abs, exists: true } : { path: abs, exists: false } });
    return exists;
  }

  /**
   * Lists a directory (entries sorted by code point, symlinks not followed) and records the
   * listing, so adding, removing or renaming an entry invalidates the result. Throws
   * CacheFileError (CACHE_FILE_NOT_FOUND, CACHE_NOT_DIRECTORY, CACHE_READ_FAILED).
   */
  listDir(path: string): DirEntryInfo[] {
    const abs = resolve(path);
    const key = LISTING_KEY + abs;
    const known = this.entries.get(key);
    if (known?.listing) return known.listing.map((entry) => ({ ...entry }));
    if (known?.error) throw known.error;
    let listing: DirEntryInfo[];
    try {
      listing = listDirSync(abs);
    } catch (err) {
      if (!(err instanceof CacheFileError)) throw err;
      const notFound = err.code === 'CACHE_FILE_NOT_FOUND';
      const dep: FileDep = notFound
        ? { path: abs, exists: false }
        : { path: abs, exists: true, kind: 'dir', digest: UNREADABLE_DIGEST };
      this.entries.set(key, { dep, error: err });
      throw err;
    }
    this.entries.set(key, { dep: { path: abs, exists: true, kind: 'dir', digest: listingDigest(listing) }, listing });
    return listing.map((entry) => ({ ...entry }));
  }

  /**
   * Records what the entry at `path` is, symlinks not followed, as a walk that expands links
   * itself saw it: `seen` is the link target, undefined for an entry that is no symlink, null
   * for nothing there, 'unreadable' when it could not be told (never valid again).
   */
  recordLink(path: string, seen: string | undefined | null | typeof UNREADABLE_LINK): void {
    const abs = resolve(path);
    const key = LINK_KEY + abs;
    if (this.entries.has(key)) return;
    const dep: FileDep =
      seen === null
        ? { path: abs, exists: false, kind: 'link' }
        : {
            path: abs,
            exists: true,
            kind: 'link',
            digest: seen === UNREADABLE_LINK ? UNREADABLE_DIGEST : linkDigest(seen),
          };
    this.entries.set(key, { dep });
  }

  /** Everything recorded so far, in first-touch order. Copies: callers may keep or send them. */
  deps(): FileDep[] {
    return [...this.entries.values()].map((entry) => ({ ...entry.dep }));
  }

  stats(): { filesRead: number; bytesRead: number; paths: number } {
    return { filesRead: this.filesRead, bytesRead: this.bytesRead, paths: this.entries.size };
  }
}
