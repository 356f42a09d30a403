/**
 * What replicas of the remote service share, through one Redis: blobs
 * (shared-blobs.ts), results (shared-results.ts, the second cache level) and
 * the one-render-per-key lock (render-lock.ts). Absent when the service runs
 * without `--redis-url`: each replica then stands alone, as before.
 */
import type { Logger } from '../logger.js';
import type { BlobStore } from './blob-store.js';
import { RedisLink, type RedisState } from './redis-link.js';
import { RenderLock } from './render-lock.js';
import { SharedBlobs } from './shared-blobs.js';
import { SharedResults } from './shared-results.js';

export interface FleetOptions {
  redisUrl: string;
  redisTimeoutMs: number;
  keyPrefix: string;
  ttlMs: number;
  /** Largest blob or result entry written to Redis; larger ones stay on their replica. */
  maxEntryBytes: number;
  /** Lease of the render lock; renewed while the holder renders. */
  lockLeaseMs: number;
}

export class Fleet {
  readonly link: RedisLink;
  readonly blobs: SharedBlobs;
  readonly results: SharedResults;
  readonly lock: RenderLock;

  constructor(opts: FleetOptions, store: BlobStore, logger: Logger) {
    this.link = new RedisLink(
      { url: opts.redisUrl, timeoutMs: opts.redisTimeoutMs, keyPrefix: opts.keyPrefix },
      logger,
    );
    this.blobs = new SharedBlobs(this.link, store, { ttlMs: opts.ttlMs, maxBlobBytes: opts.maxEntryBytes });
    this.results = new SharedResults(this.link, { ttlMs: opts.ttlMs, maxEntryBytes: opts.maxEntryBytes });
    this.lock = new RenderLock(this.link, { leaseMs: opts.lockLeaseMs, pollMs: 50 });
  }

  get state(): RedisState {
    return this.link.state;
  }

  close(): Promise<void> {
    return this.link.close();
  }
}
