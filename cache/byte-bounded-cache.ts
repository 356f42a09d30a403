// ByteBoundedCache: an LRU map whose bound is the sum of caller-supplied entry sizes in bytes.
// Invariants: total bytes never exceed maxBytes (least recently used entries go first; an entry
// larger than the whole bound is not stored at all); sizes are sanitised so a NaN, zero or
// fractional size from a caller can never make lru-cache throw.
import { LRUCache } from 'lru-cache';

export type RemovalReason = 'evict' | 'set' | 'delete' | 'expire' | 'fetch';

export interface ByteBoundedCacheOptions<V> {
  name: string;
  maxBytes: number;
  /** Called whenever an entry leaves the cache, whatever the reason (eviction, replacement, delete). */
  onRemove?: (key: string, value: V, reason: RemovalReason) => void;
}

export interface ByteCacheStats {
  name: string;
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
  maxBytes: number;
}

export class ByteBoundedCache<V> {
  private readonly lru: LRUCache<string, { value: V }>;
  private readonly name: string;
  private hits = 0;
  private misses = 0;
  private evictions = 0;

  constructor(opts: ByteBoundedCacheOptions<V>) {
    this.name = opts.name;
    const onRemove = opts.onRemove;
    this.lru = new LRUCache<string, { value: V }>({
      maxSize: wholeBytes(opts.maxBytes),
      dispose: (boxed, key, reason) => {
        if (reason === 'evict') this.evictions++;
        onRemove?.(key, boxed.value, reason);
      },
    });
  }

  get(key: string): V | undefined {
    const boxed = this.lru.get(key);
    if (boxed === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return boxed.value;
  }

  /** Looks without counting a hit or refreshing recency. */
  peek(key: string): V | undefined {
    return this.lru.peek(key)?.value;
  }

  has(key: string): boolean {
    return this.lru.has(key);
  }

  /** Stores value (boxed, so `undefined` values are storable). Oversized entries are dropped. */
  set(key: string, value: V, bytes: number): void {
    this.lru.set(key, { value }, { size: wholeBytes(bytes) });
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  keys(): string[] {
    return [...this.lru.keys()];
  }

  stats(): ByteCacheStats {
    return {
      name: this.name,
      entries: this.lru.size,
      bytes: this.lru.calculatedSize,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
      maxBytes: this.lru.maxSize,
    };
  }
}

/** lru-cache demands positive integers; anything else becomes the nearest sane size. */
function wholeBytes(n: number): number {
  if (Number.isNaN(n) || n < 1) return 1;
  return Math.min(Math.ceil(n), Number.MAX_SAFE_INTEGER);
}
