/**
 * Finds a compatible daemon or starts one (hazards 27 and 28).
 * Commands skip the separate hello: run-remote.ts sends the CLI's build with
 * the command and calls spawnDaemon/stopDaemon from here when it is refused.
 *
 * 1. `daemon/hello` over the socket. Same protocol and build id → use it.
 * 2. Different build → ask it to shut down (SIGTERM by pid as a fallback),
 *    wait for its socket to go, then start our own.
 * 3. Nothing listening → spawn `node dist/server/main.js` detached. The
 *    daemon itself takes the lock file, so when two CLIs spawn at once the
 *    loser exits and both CLIs end up talking to the winner. Stale sockets
 *    are removed only by the lock holder: the CLI never unlinks anything.
 * The spawned daemon reports its first status line on stderr (READY, EXISTS,
 * ERROR …) so a failing start prints the daemon's own reason once, with no
 * retry loop.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Methods, PROTOCOL_VERSION, type HelloResult } from '../protocol/index.js';
import { cliBuildId } from './build-info.js';
import { ConnectError, RpcCallError, rpcCall } from './connection.js';
import { DAEMON_STATUS_FD_ENV as STATUS_FD_ENV, ensureSecureDir, type DaemonPaths } from './paths.js';
import { processAlive } from './process-state.js';

const START_TIMEOUT_MS = 15_000;

export class DaemonStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonStartError';
  }
}

export function serverEntry(name: 'main' | 'remote/main'): string {
  return fileURLToPath(new URL(`../server/${name}.js`, import.meta.url));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function hello(paths: DaemonPaths, timeoutMs = 3000): Promise<HelloResult> {
  return rpcCall<HelloResult>(
    paths.socket,
    Methods.hello.method,
    { protocolVersion: PROTOCOL_VERSION, buildId: cliBuildId() },
    timeoutMs,
  );
}

/** hello, mapping "nobody there" to undefined. */
async function tryHello(paths: DaemonPaths): Promise<HelloResult | undefined> {
  try {
    return await hello(paths);
  } catch (err) {
    if (err instanceof ConnectError) return undefined;
    throw err;
  }
}

function daemonPidFromInfo(paths: DaemonPaths): number | undefined {
  try {
    const info = JSON.parse(readFileSync(paths.info, 'utf8')) as { pid?: unknown };
    return typeof info.pid === 'number' ? info.pid : undefined;
  } catch {
    return undefined;
  }
}

const alive = processAlive;

/** Stops the daemon at `paths` (if any) and waits until its process is gone. */
export async function stopDaemon(paths: DaemonPaths, reason: string, timeoutMs = 5000): Promise<number | undefined> {
  let pid: number | undefined;
  try {
    pid = (await hello(paths)).pid;
  } catch (err) {
    if (err instanceof ConnectError) return undefined;
    pid = daemonPidFromInfo(paths);
  }
  try {
    await rpcCall(paths.socket, Methods.shutdown.method, { reason }, 3000);
  } catch {
    if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGTERM');
  }
  const deadline = Date.now() + timeoutMs;
  while (pid !== undefined && alive(pid) && Date.now() < deadline) await sleep(20);
  if (pid !== undefined && alive(pid))
    throw new DaemonStartError(`the old kubecfg daemon (pid ${pid}) did not stop within ${timeoutMs} ms`);
  return pid;
}

/** Appends to the daemon's log (made 0700/0600 as the daemon makes it), or undefined when it cannot. */
function openDaemonLog(file: string): number | undefined {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    return openSync(file, 'a', 0o600);
  } catch {
    return undefined;
  }
}

/** What to add to "the daemon exited during start-up": what it said, else where to look. */
function exitedDetail(said: string, logged: boolean): string {
  if (said.trim()) return `: ${said.trim()}`;
  return logged ? '; see its log' : '';
}

export interface StartOptions {
  /** Extra arguments for server/main.js (from `kubecfg daemon start`). */
  daemonArgs?: string[];
}

/**
 * Spawns a detached daemon and waits for its status line. Resolves when a
 * daemon (ours, or a concurrent winner) answers hello compatibly.
 */
export async function spawnDaemon(paths: DaemonPaths, opts: StartOptions = {}): Promise<HelloResult> {
  // The daemon's stderr is its log file from the start, so what only the runtime can say (a fatal
  // V8 out-of-memory, an abort) lands there once this CLI is gone; its status line comes on fd 3.
  // A log we cannot open leaves stderr a pipe, as before: the daemon reports why it cannot start.
  const logFd = openDaemonLog(paths.logFile);
  const child = spawn(process.execPath, [serverEntry('main'), ...(opts.daemonArgs ?? [])], {
    detached: true,
    stdio: ['ignore', 'ignore', logFd ?? 'pipe', 'pipe'],
    env: { ...process.env, [STATUS_FD_ENV]: '3' },
  });
  if (logFd !== undefined) closeSync(logFd);
  const statusStream = child.stdio[3] as Readable;
  // Without the log, what the runtime printed before dying is the only clue: kept for the message.
  let lastWords = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (lastWords.length < 4096) lastWords += chunk;
  });
  const status = await new Promise<string>((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve(`TIMEOUT ${text}`), START_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve(`ERROR cannot run ${process.execPath}: ${err.message}`);
    });
    statusStream.setEncoding('utf8');
    statusStream.on('data', (chunk: string) => {
      text += chunk;
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, nl));
      }
    });
    statusStream.on('close', () => {
      clearTimeout(timer);
      resolve(
        text.includes('\n')
          ? text.slice(0, text.indexOf('\n'))
          : `ERROR the daemon exited during start-up${exitedDetail(text || lastWords, logFd !== undefined)}`,
      );
    });
  });
  statusStream.destroy();
  child.stderr?.destroy();
  child.unref();
  if (status.startsWith('ERROR '))
    throw new DaemonStartError(`could not start the kubecfg daemon: ${status.slice(6)} (log: ${paths.logFile})`);
  if (status.startsWith('TIMEOUT')) {
    throw new DaemonStartError(
      `the kubecfg daemon did not report ready within ${START_TIMEOUT_MS / 1000}s (log: ${paths.logFile})`,
    );
  }
  // READY or EXISTS: poll until a compatible daemon answers.
  const deadline = Date.now() + START_TIMEOUT_MS;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const h = await hello(paths, 2000);
      if (h.compatible) return h;
      last = new Error(`a daemon of another build (${h.buildId}) holds the socket`);
    } catch (err) {
      last = err;
    }
    await sleep(25);
  }
  throw new DaemonStartError(
    `the kubecfg daemon did not answer after starting: ${(last as Error | undefined)?.message ?? 'unknown'} (log: ${paths.logFile})`,
  );
}

/**
 * Starts a daemon and returns at once, after a first call rendered in the CLI: the next call
 * finds it. Nobody reads its status line; a daemon that cannot start says why in its log file,
 * and `kubecfg daemon start` reports it. Two CLIs doing this at once are resolved by the lock.
 */
export function startDaemonDetached(paths: DaemonPaths, opts: StartOptions = {}): void {
  try {
    ensureSecureDir(paths.dir);
    const child = spawn(process.execPath, [serverEntry('main'), ...(opts.daemonArgs ?? [])], {
      detached: true,
      stdio: 'ignore',
      env: process.env,
    });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The command has been answered already; the next call starts a daemon or says why it cannot.
  }
}

/** Returns a compatible daemon, starting or replacing one as needed. */
export async function ensureDaemon(paths: DaemonPaths, opts: StartOptions = {}): Promise<HelloResult> {
  ensureSecureDir(paths.dir);
  let current: HelloResult | undefined;
  try {
    current = await tryHello(paths);
  } catch (err) {
    // Something answered but not our hello: treat as incompatible and replace it.
    if (!(err instanceof RpcCallError)) throw err;
    await stopDaemon(paths, 'incompatible protocol');
  }
  if (current?.compatible) return current;
  if (current) await stopDaemon(paths, `replaced by a CLI of build ${cliBuildId()}`);
  return spawnDaemon(paths, opts);
}
