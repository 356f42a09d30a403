// StatPoller: the watcher's fallback once inotify has failed (ENOSPC, EMFILE). Every interval it
// stats the tracked paths and reports those whose fingerprint (existence, size, mtime, ctime,
// inode) changed, so `--watch` keeps working, only slower. Correctness still rests on
// validation, never on this.
// Invariants: a path's first fingerprint is its baseline (seeded from the render's own stat data
// when available, so an edit between render and first poll is still reported); polls never
// overlap; stat errors count as "missing"; stop() ends all timers.
import * as fs from 'node:fs';
import type { FileDep } from './file-dep.js';

const MISSING = 'missing';
const PARALLEL_STATS = 16;

export interface StatPollerOptions {
  intervalMs: number;
  /** The paths to poll, read afresh on every round (the tracked set changes over time). */
  paths: () => Iterable<string>;
  onChanged: (paths: string[]) => void;
}

export class StatPoller {
  private readonly fingerprints = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(private readonly opts: StatPollerOptions) {}

  /** Baseline from what the render saw, so changes made before the first poll are caught. */
  seed(dep: FileDep): void {
    if (this.fingerprints.has(dep.path)) return;
    if (!dep.exists) this.fingerprints.set(dep.path, MISSING);
    else if (dep.kind !== 'dir' && dep.size !== undefined && dep.mtimeNs !== undefined && dep.ctimeNs !== undefined) {
      this.fingerprints.set(dep.path, `${dep.size}:${dep.mtimeNs}:${dep.ctimeNs}:${dep.ino}`);
    }
  }

  /** Drops baselines of paths no longer tracked. */
  retain(live: Set<string>): void {
    for (const path of this.fingerprints.keys()) if (!live.has(path)) this.fingerprints.delete(path);
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pollOnce(), Math.max(10, this.opts.intervalMs));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One round; exposed for tests. Resolves when the round is done. */
  async pollOnce(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const paths = [...new Set(this.opts.paths())];
      const changed: string[] = [];
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < paths.length) {
          const path = paths[next++]!;
          const now = await fingerprintOf(path);
          const before = this.fingerprints.get(path);
          this.fingerprints.set(path, now);
          if (before !== undefined && before !== now) changed.push(path);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_STATS, paths.length) }, worker));
      this.retain(new Set(paths)); // forget untracked paths, so the map stays bounded
      if (changed.length > 0 && this.timer) this.opts.onChanged(changed.sort());
    } finally {
      this.polling = false;
    }
  }
}

async function fingerprintOf(path: string): Promise<string> {
  try {
    const st = await fs.promises.stat(path, { bigint: true });
    return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
  } catch {
    return MISSING;
  }
}
