/**
 * Runs one command in the daemon: streams stdout/stderr chunks as they come,
 * and returns the command's exit code. Ctrl-C sends `request/cancel` (the
 * daemon stops the render within ~100 ms) and exits 130; a second Ctrl-C
 * exits at once.
 *
 * One round trip when a compatible daemon runs: the command carries the CLI's
 * protocol version and build id (`client`), instead of a `daemon/hello` first.
 * Nothing listening → start a daemon and send again, or (the first call,
 * `inProcess`) run the command in this process and start the daemon in the
 * background. A daemon of another build answers VersionMismatch, one older than the `client` field refuses it
 * (-32602 on `params.client`) and one without the method answers -32601: all
 * three ran nothing, so the CLI replaces the daemon and sends again (hazard
 * 27). Each happens at most once per command: a second refusal is reported.
 */
import {
  ErrorCodes,
  Methods,
  Notifications,
  PROTOCOL_VERSION,
  type CommandParams,
  type CommandResult,
  type DirectNotificationParams,
  type OutputNotificationParams,
} from '../protocol/index.js';
import { cliBuildId } from './build-info.js';
import {
  ConnectError,
  RpcCallError,
  rpcCall,
  rpcStream,
  StreamBrokenError,
  type BytesHandler,
  type DaemonTarget,
  type TcpTarget,
} from './connection.js';
import { ensureSecureDir, type DaemonPaths } from './paths.js';
import { exitOnOutputError, ownStdoutPipe } from './stdout-pipe.js';

// The launcher (node:child_process and friends) is needed only when no daemon of this build
// answers; a warm command never loads it (docs/performance.md, "The CLI's own start-up").
const launcher = () => import('./launcher.js');

export const EXIT_INTERRUPTED = 130;

export interface RunRemoteOptions {
  /**
   * The first call: when no daemon answers, run the command here instead of waiting for a
   * daemon to start, then start one in the background for the next call.
   */
  inProcess?: () => Promise<number>;
  /** Starts a daemon without waiting for it (default: launcher's startDaemonDetached). */
  startDetached?: (paths: DaemonPaths) => void;
  /** Starts a daemon when none answers (default: launcher's spawnDaemon). */
  start?: (paths: DaemonPaths) => Promise<unknown>;
  /** Stops a daemon of another build (default: launcher's stopDaemon). */
  stop?: (paths: DaemonPaths, reason: string) => Promise<unknown>;
  /** A daemon's TCP listener (--daemon-url) to use instead of the socket at `paths`; never started or replaced. */
  tcp?: TcpTarget;
  /** Where output goes (default: this process's stdout and stderr). */
  write?: (stream: 'stdout' | 'stderr', data: string) => void;
  /**
   * Where raw output bytes go; given (or by default, with `write` not given either) the daemon sends
   * output as raw bytes (protocol FRAMED_CONTENT_TYPE), which this process copies without decoding.
   */
  writeBytes?: BytesHandler;
  /**
   * STDOUT_PIPE_HEADER's value offered to a daemon on the unix socket (default: this process's stdout
   * when it is a pipe and output goes to this process): the daemon may write stdout straight into it.
   */
  stdoutPipe?: string;
  /** The daemon's write into that pipe failed with this errno code (default: exit as a failed stdout does). */
  onDirectError?: (code: string) => void;
}

const writeToProcess = (stream: 'stdout' | 'stderr', data: string | Buffer): void => {
  (stream === 'stdout' ? process.stdout : process.stderr).write(data);
};

/** True when the daemon refused the command because it is of another build (it ran nothing). */
export function isBuildSkew(err: unknown): boolean {
  if (!(err instanceof RpcCallError)) return false;
  if (err.code === ErrorCodes.VersionMismatch || err.code === ErrorCodes.MethodNotFound) return true;
  const field = (err.data as { field?: unknown } | undefined)?.field;
  return err.code === ErrorCodes.InvalidParams && field === 'params.client';
}

export async function runRemote(
  paths: DaemonPaths,
  method: string,
  params: CommandParams,
  opts: RunRemoteOptions = {},
): Promise<number> {
  const write = opts.write ?? writeToProcess;
  const toProcess = opts.writeBytes === undefined && opts.write === undefined;
  const writeBytes = opts.writeBytes ?? (toProcess ? writeToProcess : undefined);
  const direct: DirectOutput = {
    stdoutPipe: opts.stdoutPipe ?? (toProcess ? ownStdoutPipe() : undefined),
    onError: opts.onDirectError ?? exitOnOutputError,
  };
  const sent: CommandParams = { ...params, client: { protocolVersion: PROTOCOL_VERSION, buildId: cliBuildId() } };
  if (opts.tcp !== undefined) {
    try {
      // Never over TCP: the daemon may be on another machine, and ignores the offer there anyway.
      return await streamOnce(opts.tcp, method, sent, write, writeBytes, { onError: direct.onError });
    } catch (err) {
      if (isBuildSkew(err) && err instanceof RpcCallError)
        return reportFailure(
          new RpcCallError(
            err.code,
            `the daemon at --daemon-url runs another build of kubecfg and is not replaced from here: ${err.message}`,
          ),
          write,
        );
      return reportFailure(err, write);
    }
  }
  ensureSecureDir(paths.dir);
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnce(paths.socket, method, sent, write, writeBytes, direct);
    } catch (err) {
      if (attempt > 0) return reportFailure(err, write);
      if (err instanceof ConnectError) {
        if (opts.inProcess) {
          // Started after the render, not during it: on a small machine the daemon's start-up
          // would take CPU from the render the user is waiting for (docs/performance.md).
          const code = await opts.inProcess();
          (opts.startDetached ?? (await launcher()).startDaemonDetached)(paths);
          return code;
        }
        await (opts.start ?? (await launcher()).spawnDaemon)(paths);
        continue;
      }
      if (isBuildSkew(err)) {
        await (opts.stop ?? (await launcher()).stopDaemon)(paths, `replaced by a CLI of build ${cliBuildId()}`);
        await (opts.start ?? (await launcher()).spawnDaemon)(paths);
        continue;
      }
      return reportFailure(err, write);
    }
  }
}

class Interrupted extends Error {}

/** The stdout pipe offered to the daemon, and what to do when its write there fails. */
interface DirectOutput {
  stdoutPipe?: string;
  onError: (code: string) => void;
}

/** One attempt; rejects with what the connection layer raised, or Interrupted after Ctrl-C. */
async function streamOnce(
  target: DaemonTarget,
  method: string,
  params: CommandParams,
  write: (stream: 'stdout' | 'stderr', data: string) => void,
  writeBytes: BytesHandler | undefined,
  direct: DirectOutput,
): Promise<number> {
  let interrupted = false;
  const handle = rpcStream<CommandResult>(
    target,
    method,
    params,
    (name, p) => {
      if (name === Notifications.direct) {
        const error = (p as DirectNotificationParams).error;
        if (typeof error === 'string') direct.onError(error);
        return;
      }
      if (name !== Notifications.output) return;
      const out = p as OutputNotificationParams;
      write(out.stream, out.data);
    },
    writeBytes,
    writeBytes === undefined ? undefined : direct.stdoutPipe,
  );
  const onSigint = (): void => {
    if (interrupted) {
      handle.abort();
      process.exit(EXIT_INTERRUPTED);
    }
    interrupted = true;
    rpcCall(target, Methods.cancel.method, { requestId: params.requestId }, 2000).catch(() => handle.abort());
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    return (await handle.done).exitCode;
  } catch (err) {
    if (err instanceof RpcCallError && err.code === ErrorCodes.RequestCancelled) throw new Interrupted();
    if (interrupted && err instanceof StreamBrokenError) throw new Interrupted();
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

function reportFailure(err: unknown, write: (stream: 'stdout' | 'stderr', data: string) => void): number {
  if (err instanceof Interrupted) return EXIT_INTERRUPTED;
  if (err instanceof RpcCallError) {
    write('stderr', `kubecfg: ${err.message}\n`);
    return 1;
  }
  throw err;
}
