/**
 * What a render worker tells the daemon about its caches, for `daemon status`. Module values have
 * no byte size of their own, so the module-reuse figure is estimated after the worker's idle
 * collection (server/idle-gc.ts), the only moment the retained heap can be measured: retained heap
 * minus the heap of a worker that rendered nothing minus the ASTs.
 */
import { getHeapStatistics } from 'node:v8';
import { fileContentCacheStats, moduleReuseStats, parseCacheStats } from '../commands/engine.js';
import { collectGarbage } from '../idle-gc.js';
import type { WorkerCacheReport } from './messages.js';

collectGarbage?.();
/** The heap of a worker that has rendered nothing: code and built-in libraries, not caches. */
const baselineHeap = getHeapStatistics().used_heap_size;
/** Retained heap measured at the last idle collection (0 before the first). */
let retainedHeap = 0;

/** Measures what stays after the idle collection (server/idle-gc.ts) that just ran. */
export function noteRetainedHeap(): void {
  retainedHeap = getHeapStatistics().used_heap_size;
}
export function cacheReport(): WorkerCacheReport[] {
  const parse = parseCacheStats();
  const reuse = moduleReuseStats();
  const files = fileContentCacheStats();
  return [
    { name: 'parsed-modules', entries: parse.entries, bytes: parse.bytes, hits: parse.hits, misses: parse.misses },
    {
      name: 'module-reuse',
      entries: reuse.modules,
      bytes: reuse.modules === 0 ? 0 : Math.max(0, retainedHeap - baselineHeap - parse.bytes),
      hits: reuse.hits,
      misses: reuse.misses,
    },
    { name: 'files', entries: files.entries, bytes: files.bytes, hits: files.hits, misses: files.misses },
  ];
}
