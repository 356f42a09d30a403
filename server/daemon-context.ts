/**
 * Everything a handler may use, built once by daemon.ts. Handlers get this
 * object instead of reaching for module-level singletons, so tests could
 * assemble a daemon with different parts.
 */
import type { FileWatcher, ResultCache } from '../cache/index.js';
import type { DaemonPaths } from '../client-cli/paths.js';
import type { CachedOutput, CommandRunner } from './command-runner.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { DaemonOptions } from './options.js';
import type { InFlight } from './requests.js';
import type { ChangeHub } from './watch-session.js';
import type { WorkerPool } from './worker/pool.js';

export interface DaemonContext {
  paths: DaemonPaths;
  options: DaemonOptions;
  buildId: string;
  startedAt: Date;
  logger: Logger;
  inFlight: InFlight;
  metrics: Metrics;
  runner: CommandRunner;
  hub: ChangeHub;
  pool: WorkerPool;
  cache: ResultCache<CachedOutput>;
  watcher: FileWatcher;
  tcpAddress: string | null;
  /** Starts an orderly shutdown (idempotent). */
  shutdown(reason: string): void;
  /** Marks activity: re-arms the idle timer. */
  touch(): void;
}
