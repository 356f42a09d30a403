/**
 * `kubecfg daemon start|stop|status|logs`. Start passes its flags through to
 * server/main.js; status prints what `daemon/status` returns; logs reads the
 * log file directly (daemon-logs.ts).
 */
import { runChild } from './run-child.js';
import { Methods, type DaemonStatus, type FlagValue } from '../protocol/index.js';
import { ConnectError, rpcCall } from './connection.js';
import { printLogs } from './daemon-logs.js';
import { ensureDaemon, hello, serverEntry, stopDaemon } from './launcher.js';
import { ensureSecureDir, type DaemonPaths } from './paths.js';

function daemonArgsFrom(flags: Record<string, FlagValue>): string[] {
  const out: string[] = [];
  for (const name of ['listen', 'idle-timeout', 'workers', 'worker-memory-mb']) {
    if (flags[name] !== undefined) out.push(`--${name}`, String(flags[name]));
  }
  if (flags['render-on-save'] === false) out.push('--render-on-save=false');
  return out;
}

/** Runs a server entry in the foreground; a supervisor (kubelet, systemd, a test) signals this process only. */
function runForeground(entry: string, args: string[]): Promise<number> {
  return runChild({ args: [entry, ...args], forward: ['SIGTERM', 'SIGINT', 'SIGHUP'] });
}

/**
 * `daemon start --tls-cert C --tls-key K --tokens F [--listen ADDR]` is the remote render service
 * (issue 12, docs/remote.md): a shared server for CI runners, run in the foreground as services are
 * (a container's main process, a systemd unit). It never uses the local socket.
 */
function startRemoteService(flags: Record<string, FlagValue>): Promise<number> {
  const args: string[] = [];
  for (const name of ['listen', 'tls-cert', 'tls-key', 'tokens']) {
    if (flags[name] !== undefined) args.push(`--${name}`, String(flags[name]));
  }
  return runForeground(serverEntry('remote/main'), args);
}

async function start(paths: DaemonPaths, flags: Record<string, FlagValue>): Promise<number> {
  if (flags['tls-cert'] !== undefined || flags['tls-key'] !== undefined || flags.tokens !== undefined) {
    return startRemoteService(flags);
  }
  const daemonArgs = daemonArgsFrom(flags);
  if (flags.foreground === true) {
    ensureSecureDir(paths.dir);
    return runForeground(serverEntry('main'), ['--foreground', ...daemonArgs]);
  }
  let running;
  try {
    running = await hello(paths);
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
  }
  if (running?.compatible) {
    process.stdout.write(`kubecfg daemon already running (pid ${running.pid}); stop it first to change its settings\n`);
    return 0;
  }
  const h = await ensureDaemon(paths, { daemonArgs });
  process.stdout.write(`kubecfg daemon started (pid ${h.pid}, socket ${paths.socket})\n`);
  return 0;
}

async function stop(paths: DaemonPaths): Promise<number> {
  const pid = await stopDaemon(paths, 'kubecfg daemon stop');
  process.stdout.write(pid === undefined ? 'kubecfg daemon is not running\n' : `kubecfg daemon stopped (pid ${pid})\n`);
  return 0;
}

function formatDuration(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h > 0 ? `${h}h${m}m${rest}s` : m > 0 ? `${m}m${rest}s` : `${rest}s`;
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

function formatStatus(st: DaemonStatus): string {
  const lines: [string, string][] = [
    ['daemon', `running (pid ${st.pid})`],
    ['version', `${st.version} (build ${st.buildId}, protocol ${st.protocolVersion})`],
    ['uptime', formatDuration(st.uptimeSeconds)],
    ['socket', st.socketPath],
    ['tcp', st.tcpListen ?? 'off'],
    ['requests', `${st.requestsServed} served, ${st.requestsInFlight} in flight`],
    [
      'memory',
      `RSS ${mib(st.rssBytes)}, heap ${mib(st.heapUsedBytes)}; with the render hosts ${mib(st.totalPssBytes)} (PSS)`,
    ],
    ['watched files', `${st.watchedFiles}${st.watchDegraded ? ` (degraded: ${st.watchDegraded})` : ''}`],
    [
      'workers',
      `${st.workers.length} (${st.workers.filter((w) => w.busy).length} busy, ${st.workersReplaced} replaced)`,
    ],
    ['idle timeout', st.idleTimeoutSeconds > 0 ? formatDuration(st.idleTimeoutSeconds) : 'never'],
    ['log', st.logFile],
  ];
  for (const c of st.caches) {
    const total = c.hits + c.misses;
    const rate = total > 0 ? ` (${Math.round((100 * c.hits) / total)}% hits)` : '';
    lines.push([`cache ${c.name}`, `${c.entries} entries, ${mib(c.bytes)}, ${c.hits} hits, ${c.misses} misses${rate}`]);
  }
  const width = Math.max(...lines.map(([k]) => k.length)) + 1;
  return lines.map(([k, v]) => `${(k + ':').padEnd(width)} ${v}`).join('\n') + '\n';
}

async function status(paths: DaemonPaths, flags: Record<string, FlagValue>): Promise<number> {
  let st: DaemonStatus;
  try {
    st = await rpcCall<DaemonStatus>(paths.socket, Methods.status.method, {}, 3000);
  } catch (err) {
    if (err instanceof ConnectError) {
      process.stdout.write(`kubecfg daemon is not running (socket ${paths.socket})\n`);
      return 1;
    }
    throw err;
  }
  process.stdout.write(flags.output === 'json' ? JSON.stringify(st, null, 2) + '\n' : formatStatus(st));
  return 0;
}

async function logs(paths: DaemonPaths, flags: Record<string, FlagValue>): Promise<number> {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await printLogs(paths.logFile, {
      lines: typeof flags.lines === 'number' ? flags.lines : 50,
      format: flags.output === 'json' ? 'json' : 'text',
      follow: flags.follow === true,
      color:
        flags.color === 'always' || (flags.color !== 'never' && process.stdout.isTTY === true && !process.env.NO_COLOR),
      write: (text) => process.stdout.write(text),
      signal: controller.signal,
    });
    return 0;
  } catch (err) {
    process.stderr.write(`kubecfg: cannot read the daemon log ${paths.logFile}: ${(err as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

export async function runDaemonCommand(
  sub: string | undefined,
  paths: DaemonPaths,
  flags: Record<string, FlagValue>,
): Promise<number> {
  switch (sub) {
    case 'start':
      return start(paths, flags);
    case 'stop':
      return stop(paths);
    case 'status':
      return status(paths, flags);
    case 'logs':
      return logs(paths, flags);
    default:
      process.stderr.write('kubecfg: daemon needs a subcommand: start, stop, status or logs\n');
      return 1;
  }
}
