/**
 * Daemon lifecycle, given the lock is already ours: remove a stale socket
 * (safe: only the lock holder does this), build the parts, listen on the unix
 * socket (chmod 0600; the 0700 directory is the real protection), optionally
 * on TCP with a token, write daemon.json, and arm the idle timer. Shutdown is
 * idempotent and undoes it all in reverse, releasing the lock last.
 */
import { chmodSync, unlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { FileWatcher, ResultCache } from '../cache/index.js';
import type { DaemonPaths } from '../client-cli/paths.js';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { CommandRunner, statSyncDepIo, type CachedOutput, type Executor } from './command-runner.js';
import type { DaemonContext } from './daemon-context.js';
import { createHttpApp } from './http.js';
import type { Logger } from './logger.js';
import { Metrics } from './metrics.js';
import type { DaemonOptions } from './options.js';
import { InFlight } from './requests.js';
import { createTokenFile } from './tcp-token.js';
import { ChangeHub } from './watch-session.js';
import { WorkerPool } from './worker/pool.js';
import { RemoteInputs } from './remote-inputs/remote-fetcher.js';

const RESULT_CACHE_BYTES = 256 * 1024 * 1024;

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

export interface RunningDaemon {
  ctx: DaemonContext;
  stopped: Promise<void>;
}

export async function runDaemon(opts: {
  options: DaemonOptions;
  paths: DaemonPaths;
  logger: Logger;
  buildId: string;
  releaseLock: () => void;
  testHooks: boolean;
}): Promise<RunningDaemon> {
  const { options, paths, logger } = opts;
  const hub = new ChangeHub();
  const cache = new ResultCache<CachedOutput>({
    maxBytes: RESULT_CACHE_BYTES,
    validation: { io: statSyncDepIo },
    onStale: (_key, path, reason) => logger.debug({ path, reason }, 'cached result is stale'),
  });
  const watcher = new FileWatcher({
    // A save arrives as one to three events within a millisecond or two (write, or write + rename);
    // 5 ms still batches them. Every millisecond here is one more before an edit's render starts
    // (render on save, `--watch`): 15 ms before, 50 ms before that.
    debounceMs: 5,
    onChange: (changed) => {
      const dropped = cache.invalidatePaths(changed);
      logger.debug({ changed, dropped }, 'files changed');
      // Before the watch sessions hear of it: they then join this render instead of starting one.
      if (options.renderOnSave) runner.filesChanged(changed);
      hub.emit(changed);
    },
  });
  const pool = new WorkerPool({
    size: options.workers,
    memoryMb: options.workerMemoryMb,
    testHooks: opts.testHooks,
    logger,
  });
  // Remote inputs (server/remote-inputs/): each command runs in fetch rounds; fetched bytes are daemon-wide.
  const remoteInputs = new RemoteInputs();
  const executor: Executor = {
    execute(command, params, signal) {
      return remoteInputs.run((snapshot) => {
        const job = pool.run(command, params, snapshot);
        signal.addEventListener('abort', job.cancel, { once: true });
        return job.outcome;
      }, signal);
    },
  };

  const runner = new CommandRunner(executor, cache, watcher, (deps, policy) => remoteInputs.stillValid(deps, policy));

  let stopping = false;
  let idleTimer: NodeJS.Timeout | null = null;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  const apps: { close(): Promise<unknown> }[] = [];

  const ctx: DaemonContext = {
    paths,
    options,
    buildId: opts.buildId,
    startedAt: new Date(),
    logger,
    inFlight: new InFlight(),
    metrics: new Metrics(),
    runner,
    hub,
    pool,
    cache,
    watcher,
    tcpAddress: null,
    touch() {
      if (idleTimer) clearTimeout(idleTimer);
      if (options.idleTimeoutMs <= 0 || stopping) return;
      idleTimer = setTimeout(() => {
        if (ctx.inFlight.size > 0) ctx.touch();
        else ctx.shutdown(`idle for ${Math.round(options.idleTimeoutMs / 1000)}s`);
      }, options.idleTimeoutMs);
      idleTimer.unref();
    },
    shutdown(reason) {
      if (stopping) return;
      stopping = true;
      if (idleTimer) clearTimeout(idleTimer);
      logger.info({ reason }, 'daemon stopping');
      ctx.inFlight.cancelAll();
      void (async () => {
        await Promise.allSettled(apps.map((a) => a.close()));
        await Promise.allSettled([pool.close(), watcher.close(), remoteInputs.close()]);
        unlinkQuiet(paths.socket);
        unlinkQuiet(paths.info);
        unlinkQuiet(paths.token);
        opts.releaseLock();
        logger.info('daemon stopped');
        resolveStopped();
      })();
    },
  };

  // We hold the lock, so any socket file here is a dead daemon's: removing it races with no one.
  unlinkQuiet(paths.socket);
  const unixApp = createHttpApp(ctx, null);
  apps.push(unixApp);
  await unixApp.listen({ path: paths.socket });
  chmodSync(paths.socket, 0o600);

  if (options.listen) {
    const token = createTokenFile(paths.token);
    const tcpApp = createHttpApp(ctx, { token });
    apps.push(tcpApp);
    await tcpApp.listen({ host: options.listen.host, port: options.listen.port });
    const addr = tcpApp.server.address() as AddressInfo;
    ctx.tcpAddress = `${addr.address}:${addr.port}`;
  }

  writeFileSync(
    paths.info,
    JSON.stringify({
      pid: process.pid,
      buildId: opts.buildId,
      protocolVersion: PROTOCOL_VERSION,
      socket: paths.socket,
      tcp: ctx.tcpAddress,
      startedAt: ctx.startedAt.toISOString(),
    }) + '\n',
    { mode: 0o600 },
  );
  ctx.touch();
  logger.info(
    { socket: paths.socket, tcp: ctx.tcpAddress, workers: options.workers, buildId: opts.buildId },
    'daemon ready',
  );
  return { ctx, stopped };
}
