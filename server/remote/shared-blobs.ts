/**
 * Blobs shared between replicas through Redis, in front of which each
 * replica keeps its own disk store (blob-store.ts): a render needs the bytes
 * on local disk, so a blob another replica received is copied down once, and
 * only after its digest is checked (a blob read from Redis is never trusted
 * as it comes). Entries expire after the shared TTL, and Redis evicts under
 * its `maxmemory-policy` (allkeys-lru), so the shared store is bounded by the
 * Redis's own memory limit; a blob over `maxBlobBytes` is kept local only.
 */
import { BlobError, type BlobStore } from './blob-store.js';
import type { RedisLink } from './redis-link.js';

export interface SharedBlobsOptions {
  ttlMs: number;
  maxBlobBytes: number;
}

export interface SharedBlobStats {
  /** Bytes copied down from Redis into this replica's store. */
  pulledBytes: number;
  /** Blobs read from Redis whose bytes did not match their digest (dropped). */
  rejected: number;
}

function sharedBlobKey(link: RedisLink, tenant: string, digest: string): string {
  return `${link.tenantPrefix(tenant)}:b:${digest}`;
}

export class SharedBlobs {
  readonly stats: SharedBlobStats = { pulledBytes: 0, rejected: 0 };

  constructor(
    private readonly link: RedisLink,
    private readonly local: BlobStore,
    private readonly opts: SharedBlobsOptions,
  ) {}

  /**
   * Which of these digests (absent locally) another replica stored, with their sizes. A blob
   * that Redis lost meanwhile is asked for again at render time (MissingBlobs), which the
   * client answers by uploading it.
   */
  async sizes(tenant: string, digests: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (digests.length === 0) return found;
    const lengths = await this.link.attempt(
      'blob-check',
      async (r) => {
        const pipe = r.pipeline();
        for (const d of digests) pipe.strlen(sharedBlobKey(this.link, tenant, d));
        const replies = (await pipe.exec()) ?? [];
        return replies.map(([err, n]) => (err ? 0 : Number(n)));
      },
      [] as number[],
    );
    lengths.forEach((n, i) => {
      if (n > 0) found.set(digests[i]!, n);
    });
    return found;
  }

  /** Copies these blobs from Redis into the local store, each after its digest is checked. */
  async pull(tenant: string, digests: readonly string[]): Promise<void> {
    for (const digest of digests) {
      const key = sharedBlobKey(this.link, tenant, digest);
      const bytes = await this.link.attempt('blob-get', (r) => r.getBuffer(key), null);
      if (!bytes) continue;
      try {
        if (this.local.put(tenant, digest, bytes)) this.stats.pulledBytes += bytes.byteLength;
      } catch (err) {
        if (!(err instanceof BlobError)) throw err;
        // Wrong bytes under a digest (corruption, or a full local store): never used, never kept.
        if (/do not match/.test(err.message)) {
          this.stats.rejected++;
          await this.link.attempt('blob-del', (r) => r.del(key), 0);
        }
      }
    }
  }

  /** Shares a blob this replica just received (checked by the local store before). */
  async push(tenant: string, digest: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0 || bytes.byteLength > this.opts.maxBlobBytes) return;
    const key = sharedBlobKey(this.link, tenant, digest);
    await this.link.attempt('blob-set', (r) => r.set(key, Buffer.from(bytes), 'PX', this.opts.ttlMs), null);
  }
}
