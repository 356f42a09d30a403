/**
 * Writing a command's stdout straight into the client's own stdout pipe (STDOUT_PIPE_HEADER), so a
 * large cached output goes daemon → pipe instead of daemon → socket → CLI → pipe: the CLI neither
 * reads nor writes it (kube-prometheus: 6 MB, ~95 socket reads and pipe writes in the CLI).
 *
 * Trust: the header arrives on the per-user unix socket (a 0700 directory), so its sender runs as
 * this user. The daemon opens `/proc/PID/fd/1` with this user's rights and uses it only if it is a
 * pipe with the device and inode the client named; what the daemon could write there is output the
 * client asked for, into a pipe the client could open itself. The pid need not be the peer's: if it
 * names another process (or another pid namespace's), the inode check fails and the output goes
 * through the socket as before. Pipes only: a regular file opened afresh would be written from
 * offset 0, not at the client's offset, and the client's offset would not move (`>`, `>>`, a shell
 * group sharing the file); terminals and sockets (Node's `spawn` gives children socket pairs) cannot
 * be opened through /proc or gain nothing.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { Socket } from 'node:net';

/**
 * Below this the copy through the CLI is one read and one write, as cheap as opening the pipe through
 * /proc (not measured apart: the saving is in large outputs, ~95 reads and writes for 6 MB).
 */
export const DIRECT_MIN_BYTES = 64 * 1024;

export interface StdoutPipe {
  pid: number;
  dev: bigint;
  ino: bigint;
}

/** The header's `PID DEV INO`, or undefined when absent or malformed (then output goes through the socket). */
export function parseStdoutPipe(value: string | string[] | undefined): StdoutPipe | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^([1-9]\d{0,9}) (\d{1,20}) (\d{1,20})$/.exec(value.trim());
  if (!m) return undefined;
  const pid = Number(m[1]);
  return Number.isSafeInteger(pid) ? { pid, dev: BigInt(m[2]!), ino: BigInt(m[3]!) } : undefined;
}

/**
 * Opens the named pipe for writing, non-blocking (an open of a pipe without a reader fails with
 * ENXIO instead of waiting), and answers it as a stream only if it is that pipe; undefined otherwise.
 * A net.Socket over the pipe: libuv writes what the pipe takes and waits for it to drain.
 */
export function openStdoutPipe(target: StdoutPipe): Socket | undefined {
  let fd: number;
  try {
    fd = openSync(`/proc/${target.pid}/fd/1`, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    if (st.isFIFO() && st.dev === target.dev && st.ino === target.ino)
      return new Socket({ fd, readable: false, writable: true });
  } catch {
    // Not usable: closed below, and the output goes through the socket.
  }
  closeSync(fd);
  return undefined;
}

/**
 * Writes `data` into `pipe` without blocking the event loop, closes it, and answers the errno code that stopped the write (EPIPE: the reader went away;
 * ECANCELED: `signal` aborted), or undefined when every byte was written.
 */
export function writeToPipe(pipe: Socket, data: Uint8Array, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (code: string | undefined): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      pipe.destroy();
      resolve(code);
    };
    const onAbort = (): void => settle('ECANCELED');
    pipe.on('error', (err: NodeJS.ErrnoException) => settle(err.code ?? 'EIO'));
    if (signal.aborted) {
      settle('ECANCELED');
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    pipe.write(data, (err) => settle(err ? ((err as NodeJS.ErrnoException).code ?? 'EIO') : undefined));
  });
}

/**
 * The output of one response with a client's pipe offered: a stdout of DIRECT_MIN_BYTES or more is
 * written into the pipe, the rest goes to `frame` (the socket), in the order written. Output after
 * a direct write waits until it has ended (the client copies frames to the same or another stream),
 * and direct writes happen only before the first frame (the client may not have copied an earlier
 * frame to its pipe yet when the daemon writes there).
 */
export class PipeFirstOutput {
  private pipeUsable = true;
  private writing: Promise<void> | null = null;
  private readonly queued: (() => void)[] = [];
  /** A cancel or a hang-up stopped a direct write: the response is the cancellation, not a failed stdout. */
  cancelled = false;

  constructor(
    private readonly target: StdoutPipe,
    private readonly signal: AbortSignal,
    private readonly frame: (stream: 'stdout' | 'stderr', data: Buffer) => void,
    /** A direct write ended: `error` is the errno code that stopped it (never ECANCELED). */
    private readonly written: (length: number, error: string | undefined) => void,
  ) {}

  write(stream: 'stdout' | 'stderr', data: Buffer): void {
    if (this.writing !== null) {
      this.queued.push(() => this.write(stream, data));
      return;
    }
    if (this.pipeUsable && stream === 'stdout' && data.length >= DIRECT_MIN_BYTES) {
      const pipe = openStdoutPipe(this.target);
      if (pipe !== undefined) {
        this.writing = writeToPipe(pipe, data, this.signal).then((error) => this.ended(data.length, error));
        return;
      }
    }
    if (data.length > 0) this.pipeUsable = false;
    this.frame(stream, data);
  }

  /** Resolves once every direct write has ended and the output queued behind it has been sent. */
  async drained(): Promise<void> {
    while (this.writing !== null) await this.writing;
  }

  private ended(length: number, error: string | undefined): void {
    this.writing = null;
    if (error !== undefined) this.pipeUsable = false;
    if (error === 'ECANCELED') this.cancelled = true;
    else this.written(length, error);
    while (this.writing === null && this.queued.length > 0) this.queued.shift()!();
  }
}
