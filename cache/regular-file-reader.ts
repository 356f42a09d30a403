// Reads and hashes files for the dependency machinery, refusing anything that is not a regular
// file *before* opening it (a FIFO would block forever, /dev/zero never ends) and checking again
// on the open descriptor (the path may have been swapped in between).
// Invariants: the returned stat describes the same inode the bytes came from; the file is opened
// O_NONBLOCK so even a FIFO swapped in after the check cannot hang us; reads stop at maxBytes.
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import { CacheFileError, describeFileKind, osErrorCode } from './cache-error.js';
import { snapshotOf, sameStat, type StatSnapshot } from './file-dep.js';

/** Far above any sane config file; stops a runaway read of a huge or growing file. */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);
const CHUNK_BYTES = 64 * 1024;
/** A file rewritten while we read it is read again, a few times, to hand out untorn bytes. */
const CONSISTENT_READ_ATTEMPTS = 3;

export interface ReadResult {
  bytes: Uint8Array;
  stat: StatSnapshot;
}

/** stat that follows symlinks but reports why the path is unusable. Throws CacheFileError. */
export function statRegularFileSync(path: string): StatSnapshot {
  let stats: fs.BigIntStats;
  try {
    stats = fs.lstatSync(path, { bigint: true });
    if (stats.isSymbolicLink()) stats = fs.statSync(path, { bigint: true });
  } catch (err) {
    throw fileErrorFrom(path, err);
  }
  if (!stats.isFile()) {
    throw new CacheFileError(
      'CACHE_NOT_REGULAR_FILE',
      path,
      `is ${describeFileKind(stats)}; only regular files can be read`,
    );
  }
  return snapshotOf(stats);
}

export function readRegularFileSync(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): ReadResult {
  let last: ReadResult | undefined;
  for (let attempt = 0; attempt < CONSISTENT_READ_ATTEMPTS; attempt++) {
    statRegularFileSync(path); // refuses FIFOs and devices before open() can touch them
    const fd = openRegularSync(path);
    try {
      const before = snapshotOf(fs.fstatSync(fd, { bigint: true }));
      const bytes = readAllSync(fd, path, maxBytes);
      const after = snapshotOf(fs.fstatSync(fd, { bigint: true }));
      last = { bytes, stat: before };
      if (sameStat(before, after)) return last;
    } finally {
      fs.closeSync(fd);
    }
  }
  // Still changing after several tries: hand out the last read. The recorded stat predates it,
  // so the next validation sees a different stat, re-hashes, and catches any torn content.
  return last!;
}

/** Opens for reading and re-checks the type on the descriptor: the path may have been swapped. */
function openRegularSync(path: string): number {
  let fd: number;
  try {
    fd = fs.openSync(path, OPEN_FLAGS);
  } catch (err) {
    throw fileErrorFrom(path, err);
  }
  const stats = fs.fstatSync(fd, { bigint: true });
  if (!stats.isFile()) {
    fs.closeSync(fd);
    throw new CacheFileError(
      'CACHE_NOT_REGULAR_FILE',
      path,
      `is ${describeFileKind(stats)}; only regular files can be read`,
    );
  }
  return fd;
}

function readAllSync(fd: number, path: string, maxBytes: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let n: number;
    try {
      n = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
    } catch (err) {
      throw fileErrorFrom(path, err);
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) {
      throw new CacheFileError(
        'CACHE_FILE_TOO_LARGE',
        path,
        `is larger than the ${maxBytes}-byte limit for an imported file`,
      );
    }
    chunks.push(n === CHUNK_BYTES ? chunk : chunk.subarray(0, n));
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/** Outcome of re-hashing a dependency: the digest, or the reason it cannot be one. */
export type HashOutcome =
  { kind: 'hashed'; digest: string; stat: StatSnapshot } | { kind: 'missing' } | { kind: 'unreadable'; why: string };

export function hashRegularFileSync(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): HashOutcome {
  try {
    const { bytes, stat } = readRegularFileSync(path, maxBytes);
    return { kind: 'hashed', digest: createHash('sha256').update(bytes).digest('hex'), stat };
  } catch (err) {
    return hashFailure(err);
  }
}

export async function hashRegularFile(path: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<HashOutcome> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    let stats = await fs.promises.lstat(path, { bigint: true });
    if (stats.isSymbolicLink()) stats = await fs.promises.stat(path, { bigint: true });
    if (!stats.isFile()) return { kind: 'unreadable', why: `is ${describeFileKind(stats)}` };
    handle = await fs.promises.open(path, OPEN_FLAGS);
    const opened = await handle.stat({ bigint: true });
    if (!opened.isFile()) return { kind: 'unreadable', why: `is ${describeFileKind(opened)}` };
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return { kind: 'unreadable', why: `is larger than ${maxBytes} bytes` };
      hash.update(chunk.subarray(0, bytesRead));
    }
    // The stat taken on the open descriptor before reading: if the file changes under us, the
    // next check sees a different stat and hashes again.
    return { kind: 'hashed', digest: hash.digest('hex'), stat: snapshotOf(opened) };
  } catch (err) {
    return hashFailure(err);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function hashFailure(err: unknown): HashOutcome {
  if (err instanceof CacheFileError) {
    return err.code === 'CACHE_FILE_NOT_FOUND' ? { kind: 'missing' } : { kind: 'unreadable', why: err.message };
  }
  const code = osErrorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  return { kind: 'unreadable', why: err instanceof Error ? err.message : String(err) };
}

export function fileErrorFrom(path: string, err: unknown): CacheFileError {
  const code = osErrorCode(err);
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new CacheFileError('CACHE_FILE_NOT_FOUND', path, 'no such file', code);
  const why =
    code === 'EACCES' || code === 'EPERM' ? 'permission denied' : err instanceof Error ? err.message : String(err);
  return new CacheFileError('CACHE_READ_FAILED', path, `cannot be read: ${why}`, code);
}
