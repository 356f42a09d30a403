// FileContentCache: the bytes (and digest) of files read by earlier renders of this process, handed
// to a later render's DependencyRecorder without reading or hashing again, under the same rule the
// result cache validates with (docs/cache.md): the file's stat (size, mtime, ctime, inode, device)
// must equal the one taken when the bytes were read, and that read must not have been racily clean
// (a same-size edit within one timestamp tick keeps every stat field equal). A daemon worker re-reads
// its whole import closure on every render; with this it only stats it.
// Invariants: an entry is only served when the recorded read is trustworthy (stat equal, not racy,
// clock not stepped back); the dep handed out is the one recorded at that read, so a result's
// validation later applies the very same facts; entries are bounded by bytes (LRU).
import { ByteBoundedCache } from './byte-bounded-cache.js';
import { DEFAULT_RACY_WINDOW_NS, isRacilyClean } from './dep-validation.js';
import { recordedStat, sameStat, type FileDep, type StatSnapshot } from './file-dep.js';

export interface FileContentCacheOptions {
  /** Bound on the bytes held (default 64 MiB). */
  maxBytes?: number;
  racyWindowNs?: bigint;
}

export interface CachedFileRead {
  bytes: Uint8Array;
  dep: FileDep;
}

export class FileContentCache {
  private readonly store: ByteBoundedCache<CachedFileRead>;
  private readonly racyWindowNs: bigint;

  constructor(opts: FileContentCacheOptions = {}) {
    this.store = new ByteBoundedCache({ name: 'file-contents', maxBytes: opts.maxBytes ?? 64 * 1024 * 1024 });
    this.racyWindowNs = opts.racyWindowNs ?? DEFAULT_RACY_WINDOW_NS;
  }

  /** The earlier read of `path`, if `stat` (taken now) proves the file unchanged since. */
  lookup(path: string, stat: StatSnapshot, nowNs: bigint): CachedFileRead | undefined {
    const hit = this.store.get(path);
    if (!hit) return undefined;
    const then = recordedStat(hit.dep);
    if (!then || !sameStat(then, stat)) return undefined;
    if (isRacilyClean(hit.dep, this.racyWindowNs)) return undefined;
    // The clock went back since that read: the racy test above cannot be trusted.
    if (hit.dep.readAtNs === undefined || nowNs < hit.dep.readAtNs) return undefined;
    return hit;
  }

  remember(path: string, read: CachedFileRead): void {
    this.store.set(path, read, read.bytes.byteLength + path.length + 256);
  }

  stats(): ReturnType<ByteBoundedCache<CachedFileRead>['stats']> {
    return this.store.stats();
  }
}
