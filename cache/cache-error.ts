// CacheFileError: why a dependency could not be read, with the path it concerns.
// Invariant: `code` is one of the closed CACHE_* codes below, and the message starts with the path.
import { KubecfgError } from '../lang/common/errors.js';

export type CacheErrorCode =
  | 'CACHE_FILE_NOT_FOUND'
  | 'CACHE_NOT_REGULAR_FILE'
  | 'CACHE_NOT_DIRECTORY'
  | 'CACHE_FILE_TOO_LARGE'
  | 'CACHE_READ_FAILED';

export class CacheFileError extends KubecfgError {
  override readonly name = 'CacheFileError';
  constructor(
    readonly code: CacheErrorCode,
    readonly path: string,
    why: string,
    /** The operating-system error code (ENOENT, EACCES, ...) when there was one. */
    readonly osCode?: string,
  ) {
    super(`${path}: ${why}`);
  }
}

/** Names the kind of a non-regular file in words a user recognises. */
export function describeFileKind(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSymbolicLink(): boolean;
}): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

export function osErrorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}
