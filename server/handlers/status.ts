/**
 * `daemon/status`: answered from counters in the main thread only (never
 * waits for a worker), so it stays fast while renders run.
 */
import { PROTOCOL_VERSION, type DaemonStatus } from '../../protocol/index.js';
import { KUBECFG_VERSION } from '../../client-cli/build-info.js';
import type { DaemonContext } from '../daemon-context.js';
import { processPssBytes } from '../worker/host-memory.js';

export function status(ctx: DaemonContext): DaemonStatus {
  const mem = process.memoryUsage();
  const cache = ctx.cache.stats();
  const watch = ctx.watcher.status();
  const workers = ctx.pool.status();
  return {
    pid: process.pid,
    protocolVersion: PROTOCOL_VERSION,
    buildId: ctx.buildId,
    version: KUBECFG_VERSION,
    startedAt: ctx.startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
    socketPath: ctx.paths.socket,
    tcpListen: ctx.tcpAddress,
    requestsServed: ctx.inFlight.served,
    requestsInFlight: ctx.inFlight.size,
    rssBytes: mem.rss,
    totalPssBytes: (processPssBytes(process.pid) ?? mem.rss) + workers.reduce((sum, w) => sum + w.pssBytes, 0),
    heapUsedBytes: mem.heapUsed,
    caches: [
      { name: cache.name, entries: cache.entries, bytes: cache.bytes, hits: cache.hits, misses: cache.misses },
      ...ctx.pool.cacheTotals(),
    ],
    watchedFiles: watch.watchedFiles,
    watchDegraded: watch.degraded ? (watch.reason ?? 'unknown') : null,
    workers,
    workersReplaced: ctx.pool.replaced,
    idleTimeoutSeconds: Math.round(ctx.options.idleTimeoutMs / 1000),
    logFile: ctx.paths.logFile,
  };
}
