/**
 * Entry of the daemon process (`node dist/server/main.js`), normally spawned
 * detached by the CLI. Its first stderr line is a status for the spawner:
 *   READY <pid>     listening
 *   EXISTS <pid>    another daemon holds the lock (we exit 0)
 *   ERROR <why>     could not start (exit 1)
 * The launcher reads that line on fd 3 and gives the daemon its log file as
 * stderr, so the runtime's own last words (a fatal out-of-memory, an abort)
 * are logged too; started any other way, the line comes on stderr. The daemon
 * itself never writes to stderr after it: everything goes to the log file.
 */
import { closeSync, writeSync } from 'node:fs';
import { checkSecureDir, DAEMON_STATUS_FD_ENV, daemonPaths, ensureSecureDir } from '../client-cli/paths.js';
import { daemonBuildId } from './build-id.js';
import { runDaemon } from './daemon.js';
import { RotatingLogFile } from './log-file.js';
import { createLogger, type Logger } from './logger.js';
import { acquireDaemonLock } from './lock.js';
import { parseDaemonOptions } from './options.js';

process.umask(0o077);
process.stderr.on('error', () => {});

/** Where the status line goes: the launcher's fd 3 (stderr is then the log file), else stderr. */
const statusFd = process.env[DAEMON_STATUS_FD_ENV] === '3' ? 3 : undefined;
delete process.env[DAEMON_STATUS_FD_ENV];

let reported = false;
function report(line: string): void {
  if (reported) return;
  reported = true;
  if (statusFd === undefined) {
    process.stderr.write(line + '\n');
    return;
  }
  try {
    writeSync(statusFd, line + '\n');
    closeSync(statusFd);
  } catch {
    // The launcher is gone; the log has the story.
  }
}

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const options = parseDaemonOptions(process.argv.slice(2));
    const paths = daemonPaths();
    ensureSecureDir(paths.dir);
    checkSecureDir(paths.dir);
    const logFile = new RotatingLogFile(paths.logFile);
    logger = createLogger(logFile, process.env.KUBECFG_DAEMON_LOG_LEVEL ?? 'info');
    const lock = acquireDaemonLock(paths);
    if (!lock.acquired) {
      logger.info({ holder: lock.holderPid }, 'another daemon holds the lock; exiting');
      report(`EXISTS ${lock.holderPid}`);
      process.exit(0);
    }
    const log = logger;
    process.on('uncaughtException', (err) => log.error({ err }, 'uncaught exception (daemon keeps running)'));
    process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection (daemon keeps running)'));
    let daemon;
    try {
      daemon = await runDaemon({
        options,
        paths,
        logger,
        buildId: daemonBuildId(),
        releaseLock: lock.release,
        testHooks: process.env.KUBECFG_DAEMON_TEST_HOOKS === '1',
      });
    } catch (err) {
      lock.release();
      throw err;
    }
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => daemon.ctx.shutdown(`signal ${sig}`));
    process.on('SIGHUP', () => {});
    if (process.env.KUBECFG_DAEMON_TEST_HOOKS === '1') process.on('SIGUSR2', exhaustMainHeap);
    report(`READY ${process.pid}`);
    if (options.foreground)
      process.stdout.write(
        `kubecfg daemon listening on ${paths.socket}${daemon.ctx.tcpAddress ? ` and ${daemon.ctx.tcpAddress}` : ''} (log: ${paths.logFile})\n`,
      );
    await daemon.stopped;
    process.exit(0);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    logger?.error({ err }, 'daemon failed to start');
    report(`ERROR ${message}`);
    process.exit(1);
  }
}

/**
 * Test hook (KUBECFG_DAEMON_TEST_HOOKS=1 only): SIGUSR2 makes the main thread allocate until V8's
 * heap limit ends the process, so a test can see where the runtime's fatal message goes.
 */
function exhaustMainHeap(): void {
  const hoard: unknown[] = [];
  for (;;) hoard.push(new Array(100_000).fill({ n: hoard.length }));
}

void main();
