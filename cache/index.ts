// Public API of cache/: content-addressed caches that are never stale, dependency recording and
// validation, and the file watcher. See docs/cache.md for the rule these implement.
// Node built-ins, lru-cache and chokidar only; nothing from lang/, render/ or server/.
export type { FileDep } from './file-dep.js';
export {
  DependencyRecorder,
  UNREADABLE_DIGEST,
  UNREADABLE_LINK,
  stopHashingReads,
  useSharedContentCache,
  type DependencyRecorderOptions,
} from './dependency-recorder.js';
export { FileContentCache, type FileContentCacheOptions, type CachedFileRead } from './file-content-cache.js';
export {
  depsStillValid,
  depsStillValidSync,
  checkDeps,
  checkDepsSync,
  isRacilyClean,
  DEFAULT_RACY_WINDOW_NS,
  type DepsCheck,
  type ValidationOptions,
  type SyncDepIo,
  type AsyncDepIo,
} from './dep-validation.js';
export { digestOf, stableDigest } from './digest.js';
export { ByteBoundedCache, type ByteBoundedCacheOptions, type ByteCacheStats } from './byte-bounded-cache.js';
export { ResultCache, type ResultCacheOptions, type ResultCacheStats } from './result-cache.js';
export { FileWatcher, type FileWatcherOptions, type FileWatcherStatus, type WatchBackend } from './file-watcher.js';
export { CacheFileError, type CacheErrorCode } from './cache-error.js';
export type { DirEntryInfo } from './dir-listing.js';
export { fileDepToJson, fileDepFromJson, type FileDepJson } from './file-dep-json.js';
