/**
 * The daemon's memory of Helm work, both keyed by content so they are
 * always safe to reuse: parsed charts by the sha256 of the .tgz bytes, and
 * rendered results by the sha256 of (chart digest, release, namespace,
 * values, capabilities) — rendering is deterministic (fixed clock, seeded
 * randomness), so equal keys give equal output. Each cache is an LRU with a
 * byte bound (approximate sizes: unpacked chart bytes, rendered text bytes).
 * Invariant: callers never see a cached object itself, only copies
 * (charts are never mutated by rendering, rendered results are copied out).
 */

import { createHash } from 'node:crypto';
import type { JsonValue } from '../common/json.js';
import { isJsonObject, jsonObject } from '../common/json.js';
import type { Chart } from './chart.js';

export const DEFAULT_CHART_CACHE_BYTES = 256 * 1024 * 1024;
export const DEFAULT_RENDER_CACHE_BYTES = 128 * 1024 * 1024;

/** A least-recently-used map whose entries carry a size; the oldest go once the total passes the bound. */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;
  hits = 0;
  misses = 0;

  constructor(private maxBytes: number) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V, bytes: number): void {
    const old = this.entries.get(key);
    if (old) {
      this.total -= old.bytes;
      this.entries.delete(key);
    }
    // An entry larger than the whole bound is not kept (it would evict everything for nothing).
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    this.evict();
  }

  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  private evict(): void {
    for (const [k, e] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(k);
      this.total -= e.bytes;
    }
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
    this.hits = 0;
    this.misses = 0;
  }

  get size(): number {
    return this.entries.size;
  }
  get bytes(): number {
    return this.total;
  }
}

export function sha256Hex(...parts: (Uint8Array | string)[]): string {
  const h = createHash('sha256');
  for (const p of parts) {
    h.update(p);
    h.update('\0');
  }
  return h.digest('hex');
}

/** A deep copy of a JSON value (safe for `__proto__` keys). */
export function copyJson(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(copyJson);
  if (isJsonObject(v)) return jsonObject(Object.keys(v).map((k) => [k, copyJson(v[k]!)] as const));
  return v;
}

export interface HelmCacheStats {
  chartHits: number;
  chartMisses: number;
  charts: number;
  chartBytes: number;
  renderHits: number;
  renderMisses: number;
  renders: number;
  renderBytes: number;
}

export const chartCache = new ByteLru<Chart>(DEFAULT_CHART_CACHE_BYTES);
export const renderCache = new ByteLru<Record<string, JsonValue[]>>(DEFAULT_RENDER_CACHE_BYTES);

export function helmCacheStats(): HelmCacheStats {
  return {
    chartHits: chartCache.hits,
    chartMisses: chartCache.misses,
    charts: chartCache.size,
    chartBytes: chartCache.bytes,
    renderHits: renderCache.hits,
    renderMisses: renderCache.misses,
    renders: renderCache.size,
    renderBytes: renderCache.bytes,
  };
}

/** Empties both caches and zeroes their counters. */
export function clearHelmCaches(): void {
  chartCache.clear();
  renderCache.clear();
}

/** Sets the byte bounds (evicting at once if the new bound is smaller). */
export function configureHelmCaches(bounds: { chartBytes?: number; renderBytes?: number }): void {
  if (bounds.chartBytes !== undefined) chartCache.resize(bounds.chartBytes);
  if (bounds.renderBytes !== undefined) renderCache.resize(bounds.renderBytes);
}
