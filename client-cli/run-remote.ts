/**
 * Runs one command in the daemon: streams stdout/stderr chunks as they come,
 * and returns the command's exit code. Ctrl-C sends `request/cancel` (the
 * daemon stops the render within ~100 ms) and exits 130; a second Ctrl-C
 * exits at once.
 */
import {
  ErrorCodes,
  Methods,
  Notifications,
  type CommandParams,
  type CommandResult,
  type OutputNotificationParams,
} from '../protocol/index.js';
import { RpcCallError, rpcCall, rpcStream, StreamBrokenError } from './connection.js';
import type { DaemonPaths } from './paths.js';

export const EXIT_INTERRUPTED = 130;

export async function runRemote(paths: DaemonPaths, method: string, params: CommandParams): Promise<number> {
  let interrupted = false;
  const handle = rpcStream<CommandResult>(paths.socket, method, params, (name, p) => {
    if (name !== Notifications.output) return;
    const out = p as OutputNotificationParams;
    (out.stream === 'stdout' ? process.stdout : process.stderr).write(out.data);
  });
  const onSigint = (): void => {
    if (interrupted) {
      handle.abort();
      process.exit(EXIT_INTERRUPTED);
    }
    interrupted = true;
    rpcCall(paths.socket, Methods.cancel.method, { requestId: params.requestId }, 2000).catch(() => handle.abort());
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    const result = await handle.done;
    return result.exitCode;
  } catch (err) {
    if (err instanceof RpcCallError && err.code === ErrorCodes.RequestCancelled) return EXIT_INTERRUPTED;
    if (interrupted && err instanceof StreamBrokenError) return EXIT_INTERRUPTED;
    if (err instanceof RpcCallError) {
      process.stderr.write(`kubecfg: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
