/**
 * This process's stdout as the daemon may write into it (protocol STDOUT_PIPE_HEADER), and what the
 * CLI does when writing its stdout fails, whoever wrote: this process or the daemon.
 */
import { fstatSync } from 'node:fs';

/**
 * `PID DEV INO` of this process's stdout when it is a pipe (`kubecfg show | kubectl apply -f -`);
 * undefined for a terminal, a file (the daemon could not write at this process's offset) or a socket.
 */
export function ownStdoutPipe(): string | undefined {
  try {
    const st = fstatSync(1, { bigint: true });
    return st.isFIFO() ? `${process.pid} ${st.dev} ${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** `kubecfg show | head -1`: the reader went away (EPIPE), so stop quietly; any other failure exits 1. */
export function exitOnOutputError(code: string | undefined): never {
  process.exit(code === 'EPIPE' ? (process.exitCode ?? 0) : 1);
}
