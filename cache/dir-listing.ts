// Directory listings as dependencies: a render that enumerates a directory (a chart's templates/,
// a glob over a config folder) depends on which entries exist, not just on the files it read.
// Invariants: entries come back sorted by code point (byte order of their UTF-8 names) so a
// listing, and its digest, do not depend on readdir's order; the digest covers names and kinds.
import * as fs from 'node:fs';
import { CacheFileError, describeFileKind, osErrorCode } from './cache-error.js';
import { digestOf } from './digest.js';
import { fileErrorFrom } from './regular-file-reader.js';

export interface DirEntryInfo {
  name: string;
  /** The entry itself, symlinks not followed. */
  kind: 'file' | 'directory' | 'symlink' | 'other';
}

export type ListOutcome =
  { kind: 'listed'; digest: string } | { kind: 'missing' } | { kind: 'unreadable'; why: string };

export function listDirSync(path: string): DirEntryInfo[] {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(path, { withFileTypes: true });
  } catch (err) {
    throw listingError(path, err);
  }
  return sortedEntries(dirents);
}

export async function listDir(path: string): Promise<DirEntryInfo[]> {
  try {
    return sortedEntries(await fs.promises.readdir(path, { withFileTypes: true }));
  } catch (err) {
    throw listingError(path, err);
  }
}

export function listingDigest(entries: readonly DirEntryInfo[]): string {
  return digestOf(entries.map((entry) => `${entry.kind} ${entry.name}\n`).join(''));
}

export function listDigestSync(path: string): ListOutcome {
  try {
    return { kind: 'listed', digest: listingDigest(listDirSync(path)) };
  } catch (err) {
    return listFailure(err);
  }
}

export async function listDigest(path: string): Promise<ListOutcome> {
  try {
    return { kind: 'listed', digest: listingDigest(await listDir(path)) };
  } catch (err) {
    return listFailure(err);
  }
}

function sortedEntries(dirents: fs.Dirent[]): DirEntryInfo[] {
  const entries = dirents.map((d): DirEntryInfo => ({ name: d.name, kind: entryKind(d) }));
  return entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
}

function entryKind(d: fs.Dirent): DirEntryInfo['kind'] {
  if (d.isFile()) return 'file';
  if (d.isDirectory()) return 'directory';
  if (d.isSymbolicLink()) return 'symlink';
  return 'other';
}

function listingError(path: string, err: unknown): CacheFileError {
  if (osErrorCode(err) !== 'ENOTDIR') return fileErrorFrom(path, err);
  // ENOTDIR: either the path itself is not a directory, or one of its parents is a file (then
  // the path does not exist at all, as for a read).
  let stats: fs.Stats;
  try {
    stats = fs.statSync(path);
  } catch (statErr) {
    return fileErrorFrom(path, statErr);
  }
  const what = stats.isFile() ? 'a regular file' : describeFileKind(stats);
  return new CacheFileError('CACHE_NOT_DIRECTORY', path, `is ${what}; only directories can be listed`);
}

function listFailure(err: unknown): ListOutcome {
  if (err instanceof CacheFileError && err.code === 'CACHE_FILE_NOT_FOUND') return { kind: 'missing' };
  return { kind: 'unreadable', why: err instanceof Error ? err.message : String(err) };
}
