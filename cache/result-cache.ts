// ResultCache: whole-command results keyed by the digest of the request, each entry carrying the
// dependency set it was computed from, plus a reverse index path -> keys for eager invalidation.
// Invariants:
//  - get() never returns a value whose deps fail validation (see dep-validation.ts); a failed
//    entry is dropped on the spot. The watcher only makes invalidation earlier, never required;
//  - the reverse index holds exactly the keys currently cached (kept in step by onRemove);
//  - a get() racing with a set() of the same key never drops the newer entry.
import { ByteBoundedCache, type ByteCacheStats } from './byte-bounded-cache.js';
import { checkDeps, type AsyncDepIo, type ValidationOptions } from './dep-validation.js';
import type { FileDep } from './file-dep.js';
import { resolve } from 'node:path';

export interface ResultCacheOptions {
  maxBytes: number;
  name?: string;
  /** Validation knobs: racyWindowNs (network file systems); clock and I/O (tests). */
  validation?: ValidationOptions<AsyncDepIo>;
  /** Told why an entry was found stale: feeds debug logs ("lib.libsonnet: content changed"). */
  onStale?: (key: string, path: string, reason: string) => void;
  /**
   * Told which paths no cached entry depends on any more (after evictions, invalidations,
   * replacements), so the watcher can let go of them: e.g.
   * `onUntrack: () => watcher.unwatchUnused(new Set([...cache.trackedPaths(), ...otherLivePaths]))`.
   * Called asynchronously, batched, and only with paths still untracked at that point.
   */
  onUntrack?: (paths: string[]) => void;
}

export interface ResultCacheStats extends ByteCacheStats {
  /** Entries dropped because validation found a dependency changed. */
  staleOnGet: number;
  /** Entries dropped by invalidatePaths (watcher events). */
  invalidatedByPath: number;
  /** Distinct paths in the reverse index. */
  trackedPaths: number;
}

interface Entry<V> {
  value: V;
  deps: FileDep[];
}

export class ResultCache<V> {
  private readonly cache: ByteBoundedCache<Entry<V>>;
  private readonly dependents = new Map<string, Set<string>>();
  private readonly validation: ValidationOptions<AsyncDepIo>;
  private readonly onStale?: (key: string, path: string, reason: string) => void;
  private readonly onUntrack?: (paths: string[]) => void;
  private untracked = new Set<string>();
  private hits = 0;
  private misses = 0;
  private staleOnGet = 0;
  private invalidatedByPath = 0;

  constructor(opts: ResultCacheOptions) {
    this.cache = new ByteBoundedCache<Entry<V>>({
      name: opts.name ?? 'results',
      maxBytes: opts.maxBytes,
      onRemove: (key, entry) => this.unindex(key, entry.deps),
    });
    this.validation = opts.validation ?? {};
    this.onStale = opts.onStale;
    this.onUntrack = opts.onUntrack;
  }

  async get(key: string): Promise<V | undefined> {
    const entry = this.cache.peek(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    const check = await checkDeps(entry.deps, this.validation);
    if (!check.valid) {
      if (this.cache.peek(key) === entry) this.cache.delete(key);
      this.staleOnGet++;
      this.misses++;
      this.onStale?.(key, check.path, check.reason);
      return undefined;
    }
    // Re-hashed deps confirmed unchanged get their fresh stat data, so the next check is fast
    // (git refreshes racily clean index entries the same way). Same paths: index unchanged.
    if (check.refreshed) entry.deps = check.refreshed;
    // Count the hit and refresh recency only if the entry is still the cached one.
    if (this.cache.peek(key) === entry) this.cache.get(key);
    this.hits++;
    return entry.value;
  }

  set(key: string, value: V, deps: FileDep[], bytes: number): void {
    const entry: Entry<V> = { value, deps: deps.map((dep) => ({ ...dep, path: resolve(dep.path) })) };
    // The old entry (if any) is unindexed by onRemove when the new one replaces it.
    this.cache.set(key, entry, bytes);
    if (this.cache.peek(key) !== entry) return; // too large to keep
    for (const dep of entry.deps) {
      let keys = this.dependents.get(dep.path);
      if (keys === undefined) this.dependents.set(dep.path, (keys = new Set()));
      keys.add(key);
    }
  }

  delete(key: string): void {
    this.cache.delete(key);
  }

  /** Drops every entry that depends on any of these paths (read, probed or found missing). */
  invalidatePaths(paths: string[]): number {
    const keys = new Set<string>();
    for (const path of paths) {
      for (const key of this.dependents.get(resolve(path)) ?? []) keys.add(key);
    }
    for (const key of keys) this.cache.delete(key);
    this.invalidatedByPath += keys.size;
    return keys.size;
  }

  /** Every path some cached entry depends on: what the watcher should keep watching. */
  trackedPaths(): Set<string> {
    return new Set(this.dependents.keys());
  }

  /** The deps of a cached entry (no validation, no hit counted), e.g. to hand to the watcher. */
  depsOf(key: string): FileDep[] | undefined {
    return this.cache.peek(key)?.deps.map((dep) => ({ ...dep }));
  }

  clear(): void {
    this.cache.clear();
  }

  stats(): ResultCacheStats {
    return {
      ...this.cache.stats(),
      hits: this.hits,
      misses: this.misses,
      staleOnGet: this.staleOnGet,
      invalidatedByPath: this.invalidatedByPath,
      trackedPaths: this.dependents.size,
    };
  }

  private unindex(key: string, deps: FileDep[]): void {
    for (const dep of deps) {
      const keys = this.dependents.get(dep.path);
      if (keys === undefined) continue;
      keys.delete(key);
      if (keys.size === 0) {
        this.dependents.delete(dep.path);
        if (this.onUntrack) this.noteUntracked(dep.path);
      }
    }
  }

  /** Batches untracked paths to a microtask, so a replacement that re-tracks them is not reported. */
  private noteUntracked(path: string): void {
    if (this.untracked.size === 0) queueMicrotask(() => this.reportUntracked());
    this.untracked.add(path);
  }

  private reportUntracked(): void {
    const paths = [...this.untracked].filter((path) => !this.dependents.has(path));
    this.untracked = new Set();
    if (paths.length === 0) return;
    try {
      this.onUntrack?.(paths);
    } catch {
      // A failing listener must not break cache bookkeeping; it only delays unwatching.
    }
  }
}
