/**
 * The second level of the remote result cache, shared by every replica
 * through Redis (the in-process RemoteResults stays the first level). One
 * Redis list per (tenant, request key) holds up to MAX_VARIANTS variants as
 * JSON, newest first, each with the dependency questions of remote-results.ts:
 * a replica that misses locally reads the list and serves the variant its
 * manifest answers alike. A variant is written only when its render finished
 * (one LPUSH of the whole JSON), so a reader never sees a partial result; a
 * variant over `maxEntryBytes` stays local. Lists expire after the shared TTL.
 */
import type { RedisLink } from './redis-link.js';
import type { ManifestView } from './manifest-view.js';
import { matches, MAX_VARIANTS, type Variant } from './remote-results.js';

export interface SharedResultsOptions {
  ttlMs: number;
  maxEntryBytes: number;
}

function isVariant(v: unknown): v is Variant {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  const out = o.output as Record<string, unknown> | undefined;
  return (
    Array.isArray(o.deps) &&
    typeof out === 'object' &&
    out !== null &&
    typeof out.exitCode === 'number' &&
    typeof out.stdout === 'string' &&
    typeof out.stderr === 'string'
  );
}

function sharedResultKey(link: RedisLink, tenant: string, key: string): string {
  return `${link.tenantPrefix(tenant)}:r:${key}`;
}

export class SharedResults {
  hits = 0;
  misses = 0;
  /** The exact JSON each variant was read as, so `drop` removes that list element. */
  private readonly raw = new WeakMap<Variant, string>();

  constructor(
    private readonly link: RedisLink,
    private readonly opts: SharedResultsOptions,
  ) {}

  async get(tenant: string, key: string, view: ManifestView): Promise<Variant | undefined> {
    const k = sharedResultKey(this.link, tenant, key);
    const items = await this.link.attempt('result-get', (r) => r.lrange(k, 0, MAX_VARIANTS - 1), [] as string[]);
    for (const text of items) {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        continue;
      }
      if (!isVariant(v) || !matches(v.deps, view)) continue;
      this.raw.set(v, text);
      this.hits++;
      return v;
    }
    this.misses++;
    return undefined;
  }

  async add(tenant: string, key: string, variant: Variant): Promise<void> {
    const text = JSON.stringify(variant);
    if (Buffer.byteLength(text) > this.opts.maxEntryBytes) return;
    const k = sharedResultKey(this.link, tenant, key);
    await this.link.attempt(
      'result-set',
      (r) =>
        r
          .multi()
          .lpush(k, text)
          .ltrim(k, 0, MAX_VARIANTS - 1)
          .pexpire(k, this.opts.ttlMs)
          .exec(),
      null,
    );
  }

  /** Forgets a variant whose remote facts no longer hold (for every replica). */
  async drop(tenant: string, key: string, variant: Variant): Promise<void> {
    const text = this.raw.get(variant) ?? JSON.stringify(variant);
    await this.link.attempt('result-drop', (r) => r.lrem(sharedResultKey(this.link, tenant, key), 0, text), 0);
  }
}
