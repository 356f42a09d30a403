// FileWatcher: eager invalidation and `--watch` re-renders, on top of chokidar.
// Correctness never depends on it (ResultCache re-validates every entry before serving); it only
// makes invalidation earlier. So every failure mode degrades instead of throwing:
//  - chokidar 'error' events (ENOSPC = inotify watch limit, EMFILE, ...) set status().degraded
//    and start polling the tracked paths' stat data instead (stat-poller.ts);
//  - an exception from onChange is caught and counted, never propagated into chokidar.
// Invariants:
//  - each watched file's parent directory is watched too (depth 0), so atomic saves (write temp,
//    rename over) and deletes are seen and the replacement file stays watched;
//  - a negative dependency is covered by watching its nearest existing ancestor directory;
//  - a listed directory (dep kind 'dir') and each extra dir is watched with all its entries, and
//    an event for an entry reports the directory's path as well (its listing changed);
//  - uninteresting entries in watched directories are ignored, so a big directory costs one
//    watch, not one per entry;
//  - onChange gets absolute paths, batched: debounceMs after the last event, or maxDelayMs after
//    the first, whichever comes first (so a `git checkout` storm still flushes).
import * as fs from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import type { FileDep } from './file-dep.js';
import { osErrorCode } from './cache-error.js';
import { StatPoller } from './stat-poller.js';

/** The part of chokidar's FSWatcher we use; tests inject fakes to simulate failures. */
export interface WatchBackend {
  add(paths: string[]): unknown;
  unwatch(paths: string[]): unknown;
  on(event: 'all', listener: (event: string, path: string) => void): unknown;
  on(event: 'error', listener: (err: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'raw', listener: (event: string, path: string, details: unknown) => void): unknown;
  close(): Promise<void>;
}

export interface FileWatcherOptions {
  debounceMs?: number;
  /** Upper bound on how long a steady stream of events can delay onChange. */
  maxDelayMs?: number;
  onChange: (paths: string[]) => void;
  /** Once degraded, how often the tracked paths are polled instead (default 2000; 0: never). */
  pollMsWhenDegraded?: number;
  /** Builds the underlying watcher; `isIgnored` must be honoured for directory entries. */
  createBackend?: (isIgnored: (path: string) => boolean) => WatchBackend;
}

export interface FileWatcherStatus {
  watchedFiles: number;
  degraded: boolean;
  reason?: string;
  watchedDirs: number;
  negativePaths: number;
  /** Exceptions thrown by onChange (caught so the watcher keeps running). */
  callbackErrors: number;
  /** True once degraded and polling the tracked paths instead. */
  polling: boolean;
}

function chokidarBackend(isIgnored: (path: string) => boolean): WatchBackend {
  return chokidarWatch([], {
    ignoreInitial: true,
    depth: 0,
    // atomic: an unlink followed by an add of the same path is reported as one change.
    atomic: true,
    ignored: (path: string) => isIgnored(resolve(path)),
    ignorePermissionErrors: true,
    followSymlinks: true,
  });
}

export class FileWatcher {
  private readonly files = new Set<string>();
  private readonly negatives = new Set<string>();
  private readonly extraDirs = new Set<string>();
  private readonly watchedDirs = new Set<string>();
  private readonly watchedFiles = new Set<string>();
  private readonly debounceMs: number;
  private readonly maxDelayMs: number;
  private readonly onChange: (paths: string[]) => void;
  private readonly createBackend: (isIgnored: (path: string) => boolean) => WatchBackend;
  private backend: WatchBackend | undefined;
  private readyPromise: Promise<void> | undefined;
  private pending = new Set<string>();
  private debounceTimer: NodeJS.Timeout | undefined;
  private maxDelayTimer: NodeJS.Timeout | undefined;
  private degradedReason: string | undefined;
  private ancestorCache: Set<string> | undefined;
  private callbackErrors = 0;
  private closed = false;
  private readonly pollMsWhenDegraded: number;
  private readonly poller: StatPoller;

  constructor(opts: FileWatcherOptions) {
    this.debounceMs = Math.max(0, opts.debounceMs ?? 50);
    this.maxDelayMs = Math.max(this.debounceMs, opts.maxDelayMs ?? 1000);
    this.onChange = opts.onChange;
    this.createBackend = opts.createBackend ?? chokidarBackend;
    this.pollMsWhenDegraded = Math.max(0, opts.pollMsWhenDegraded ?? 2000);
    this.poller = new StatPoller({
      intervalMs: this.pollMsWhenDegraded,
      paths: () => [...this.files, ...this.negatives, ...this.extraDirs],
      onChanged: (paths) => paths.forEach((path) => this.handleEvent('poll', path)),
    });
  }

  /**
   * Watches the files a render read or probed, the directories it listed, `extraDirs` with all
   * their entries, and for negative deps the place where they would appear.
   */
  watchDeps(deps: FileDep[], extraDirs: string[] = []): void {
    if (this.closed) return;
    const newFiles: string[] = [];
    const newDirs: string[] = [];
    const watchDir = (dir: string): void => {
      if (!this.watchedDirs.has(dir)) {
        this.watchedDirs.add(dir);
        newDirs.push(dir);
      }
    };
    for (const dep of deps) {
      const path = resolve(dep.path);
      this.poller.seed({ ...dep, path });
      if (dep.exists && dep.kind === 'dir') {
        extraDirs = [...extraDirs, path]; // a listing depends on every entry coming and going
      } else if (dep.exists) {
        this.files.add(path);
        if (!this.watchedFiles.has(path)) {
          this.watchedFiles.add(path);
          newFiles.push(path);
        }
        watchDir(dirname(path));
      } else {
        this.negatives.add(path);
        this.ancestorCache = undefined;
        watchDir(nearestExistingDir(dirname(path)));
      }
    }
    for (const dir of extraDirs) {
      const abs = resolve(dir);
      this.extraDirs.add(abs);
      this.ancestorCache = undefined;
      watchDir(nearestExistingDir(abs));
    }
    if (newDirs.length + newFiles.length === 0) return;
    try {
      this.ensureBackend().add([...newDirs, ...newFiles]);
    } catch (err) {
      this.markDegraded(err);
    }
  }

  /** Stops watching every file, negative path and extra dir not in `live`. */
  unwatchUnused(live: Set<string>): void {
    if (this.closed) return;
    const isLive = (path: string): boolean => live.has(path);
    for (const path of [...this.files]) if (!isLive(path)) this.files.delete(path);
    for (const path of [...this.negatives]) if (!isLive(path)) this.negatives.delete(path);
    for (const dir of [...this.extraDirs]) if (!isLive(dir)) this.extraDirs.delete(dir);
    this.ancestorCache = undefined;
    this.poller.retain(new Set([...this.files, ...this.negatives, ...this.extraDirs]));
    const neededDirs = new Set<string>();
    for (const path of this.files) neededDirs.add(dirname(path));
    for (const path of this.negatives) neededDirs.add(nearestExistingDir(dirname(path)));
    for (const dir of this.extraDirs) neededDirs.add(nearestExistingDir(dir));
    const drop: string[] = [];
    for (const path of [...this.watchedFiles]) {
      if (!this.files.has(path)) {
        this.watchedFiles.delete(path);
        drop.push(path);
      }
    }
    for (const dir of [...this.watchedDirs]) {
      if (!neededDirs.has(dir)) {
        this.watchedDirs.delete(dir);
        drop.push(dir);
      }
    }
    if (drop.length > 0 && this.backend) {
      try {
        this.backend.unwatch(drop);
      } catch (err) {
        this.markDegraded(err);
      }
    }
  }

  /** Resolves once the backend has finished its initial scan (tests wait on it before editing). */
  ready(): Promise<void> {
    return this.readyPromise ?? Promise.resolve();
  }

  status(): FileWatcherStatus {
    return {
      watchedFiles: this.files.size,
      degraded: this.degradedReason !== undefined,
      ...(this.degradedReason !== undefined ? { reason: this.degradedReason } : {}),
      watchedDirs: this.watchedDirs.size,
      negativePaths: this.negatives.size,
      callbackErrors: this.callbackErrors,
      polling: this.poller.running,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.poller.stop();
    clearTimeout(this.debounceTimer);
    clearTimeout(this.maxDelayTimer);
    this.pending.clear();
    const backend = this.backend;
    this.backend = undefined;
    if (backend) await backend.close().catch(() => undefined);
  }

  private ensureBackend(): WatchBackend {
    if (this.backend) return this.backend;
    const backend = this.createBackend((path) => this.isIgnored(path));
    this.readyPromise = new Promise((resolveReady) => backend.on('ready', () => resolveReady()));
    backend.on('all', (event, path) => this.handleEvent(event, resolve(path)));
    // chokidar throttles and merges events per path (an atomic save soon after another change
    // can vanish), so the raw fs.watch notifications are consulted too: over-reporting costs
    // a re-validation, under-reporting a stale --watch view.
    backend.on('raw', (_event, path, details) => this.handleRaw(path, details));
    backend.on('error', (err) => this.markDegraded(err));
    this.backend = backend;
    return backend;
  }

  /** Entries of a watched directory that no dependency cares about get no watch of their own. */
  private isIgnored(path: string): boolean {
    if (this.watchedDirs.has(path) || this.files.has(path) || this.negatives.has(path)) return false;
    if (this.extraDirs.has(dirname(path)) || this.extraDirs.has(path)) return false;
    // An ancestor of a negative dep or extra dir: its appearance or removal matters.
    return !this.pendingAncestors().has(path);
  }

  /** Every proper ancestor of a negative dep or extra dir; rebuilt only after those sets change. */
  private pendingAncestors(): Set<string> {
    if (this.ancestorCache) return this.ancestorCache;
    const ancestors = new Set<string>();
    for (const path of [...this.negatives, ...this.extraDirs]) {
      for (let dir = dirname(path); !ancestors.has(dir); dir = dirname(dir)) {
        ancestors.add(dir);
        if (dirname(dir) === dir) break;
      }
    }
    this.ancestorCache = ancestors;
    return ancestors;
  }

  private handleEvent(event: string, path: string): void {
    if (this.closed) return;
    const changed: string[] = [];
    if (this.files.has(path) || this.negatives.has(path) || this.extraDirs.has(path)) changed.push(path);
    if (this.extraDirs.has(dirname(path))) {
      // An entry of a watched directory: the entry changed, and so may the directory's listing.
      changed.push(path, dirname(path));
    }
    if (event === 'unlinkDir') this.forgetWatchesUnder(path);
    if (event === 'addDir' || event === 'unlinkDir') {
      // A directory came or went: everything tracked beneath it may have appeared or vanished.
      const prefix = path + sep;
      for (const tracked of [...this.files, ...this.negatives, ...this.extraDirs]) {
        if (tracked.startsWith(prefix)) changed.push(tracked);
      }
    }
    if (changed.length === 0) return;
    for (const p of changed) this.pending.add(p);
    this.scheduleFlush();
  }

  /**
   * chokidar drops its watches when a directory is removed; forget ours too, so the next
   * watchDeps (after the re-render) adds them again instead of assuming they still exist.
   */
  private forgetWatchesUnder(dir: string): void {
    const prefix = dir + sep;
    this.watchedDirs.delete(dir);
    for (const d of [...this.watchedDirs]) if (d.startsWith(prefix)) this.watchedDirs.delete(d);
    for (const f of [...this.watchedFiles]) if (f.startsWith(prefix)) this.watchedFiles.delete(f);
  }

  private handleRaw(path: string, details: unknown): void {
    if (typeof path !== 'string' || typeof details !== 'object' || details === null) return;
    const watchedPath = (details as { watchedPath?: unknown }).watchedPath;
    if (typeof watchedPath !== 'string') return;
    const abs = resolve(watchedPath);
    // A file's own watch names the file; a directory's watch names the entry inside it.
    const target = this.watchedFiles.has(abs) && !this.watchedDirs.has(abs) ? abs : resolve(abs, path);
    this.handleEvent('raw', target);
  }

  private scheduleFlush(): void {
    clearTimeout(this.debounceTimer);
    this.debounceTimer = setTimeout(() => this.flush(), this.debounceMs);
    this.maxDelayTimer ??= setTimeout(() => this.flush(), this.maxDelayMs);
  }

  private flush(): void {
    clearTimeout(this.debounceTimer);
    clearTimeout(this.maxDelayTimer);
    this.debounceTimer = undefined;
    this.maxDelayTimer = undefined;
    if (this.closed || this.pending.size === 0) return;
    const paths = [...this.pending].sort();
    this.pending = new Set();
    try {
      this.onChange(paths);
    } catch {
      this.callbackErrors++;
    }
  }

  private markDegraded(err: unknown): void {
    const code = osErrorCode(err);
    const message = err instanceof Error ? err.message : String(err);
    const why =
      code === 'ENOSPC'
        ? 'inotify watch limit reached (raise fs.inotify.max_user_watches)'
        : code === 'EMFILE'
          ? 'too many open files'
          : message;
    // The first cause is the useful one; later errors are usually its consequences.
    if (this.degradedReason !== undefined) return;
    const fallback =
      this.pollMsWhenDegraded > 0 && !this.closed ? `; polling every ${this.pollMsWhenDegraded} ms instead` : '';
    this.degradedReason = `${code ? `${code}: ` : ''}${why}${fallback}; cached results are still re-validated on every request`;
    if (fallback) this.poller.start();
  }
}

/** The directory itself if it exists, else its closest existing ancestor (the root at worst). */
function nearestExistingDir(dir: string): string {
  let current = dir;
  for (;;) {
    try {
      if (fs.statSync(current, { throwIfNoEntry: false })?.isDirectory()) return current;
    } catch {
      // ENOTDIR/EACCES: keep climbing; some ancestor is watchable.
    }
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}
