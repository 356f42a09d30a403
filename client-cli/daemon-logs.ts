/**
 * `kubecfg daemon logs [-f] [-o text|json] [--lines N]`: the end of the daemon's
 * log file, read directly (it works when the daemon is down, which is when logs
 * are most wanted). The file holds pino JSON lines; `text` (the default) turns
 * each into `TIME LEVEL message key=value ...`, `json` prints them untouched.
 * `-f` keeps reading as the daemon appends, and follows the file across the
 * daemon's rotation (daemon.log renamed to daemon.log.1, a new daemon.log
 * begun): what was left in the old file is read to its end first, so no line
 * is lost or printed twice.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** pino's numeric levels. */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLORS: Record<string, number> = { WARN: 33, ERROR: 31, FATAL: 31, INFO: 34 };
/** Keys the line's head already shows, or that say nothing a reader wants (pino's `v`). */
const HEAD_KEYS = new Set(['time', 'level', 'msg', 'v']);

function logfmtValue(v: unknown): string {
  if (typeof v === 'string') return v !== '' && /^[^\s"=\\]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v);
}

/** One log line as a reader wants it; a line that is not a pino JSON object is returned as it is. */
export function readableLogLine(line: string, color = false): string {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return line;
  const e = entry as Record<string, unknown>;
  const time = typeof e.time === 'string' ? e.time : typeof e.time === 'number' ? new Date(e.time).toISOString() : '-';
  const levelWord = typeof e.level === 'number' ? (LEVELS[e.level] ?? `LEVEL${e.level}`) : String(e.level ?? '-');
  const padded = levelWord.toUpperCase().padEnd(5);
  const code = LEVEL_COLORS[levelWord];
  const level = color && code !== undefined ? `\u001b[${code}m${padded}\u001b[0m` : padded;
  const parts = [time, level, typeof e.msg === 'string' ? e.msg : ''];
  for (const [k, v] of Object.entries(e)) if (!HEAD_KEYS.has(k)) parts.push(`${k}=${logfmtValue(v)}`);
  return parts.filter((p) => p !== '').join(' ');
}

/** The last `count` lines of a file, reading at most the final 1 MiB. */
export function tailLines(file: string, count: number): string[] {
  return tailFrom(file, count).lines;
}

/** tailLines, with where the complete lines end and which file (inode) they came from, for a follow. */
function tailFrom(file: string, count: number): { lines: string[]; end: number; ino: number } {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const len = Math.min(st.size, 1 << 20);
    const buf = Buffer.alloc(len);
    const got = readSync(fd, buf, 0, len, st.size - len);
    const text = buf.subarray(0, got).toString('utf8');
    // A partial last line (the daemon mid-write) is left for the follower.
    const complete = text.lastIndexOf('\n') + 1;
    const lines = text.slice(0, complete).split('\n');
    lines.pop();
    return {
      lines: count > 0 ? lines.slice(-count) : [],
      end: st.size - len + Buffer.byteLength(text.slice(0, complete)),
      ino: st.ino,
    };
  } finally {
    closeSync(fd);
  }
}

export interface LogsOptions {
  lines: number;
  format: 'text' | 'json';
  follow: boolean;
  color: boolean;
  write: (text: string) => void;
  /** Ends a follow (Ctrl-C, SIGTERM, a test). */
  signal?: AbortSignal;
  /** How often a follow looks for new lines; the daemon writes a few lines per request. */
  pollMs?: number;
}

export async function printLogs(file: string, opts: LogsOptions): Promise<void> {
  const emit = (line: string): void =>
    opts.write((opts.format === 'json' ? line : readableLogLine(line, opts.color)) + '\n');
  let start: { lines: string[]; end: number; ino: number } | undefined;
  try {
    start = tailFrom(file, opts.lines);
  } catch (err) {
    // Following a log that does not exist yet waits for the daemon to create it.
    if (!opts.follow || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  for (const line of start?.lines ?? []) emit(line);
  if (!opts.follow) return;
  await follow(file, start, emit, opts);
}

async function follow(
  file: string,
  start: { end: number; ino: number } | undefined,
  emit: (line: string) => void,
  opts: LogsOptions,
): Promise<void> {
  let fd = start === undefined ? -1 : openSync(file, 'r');
  // The file opened must be the one tailed (a rotation between the two opens starts over on the new one).
  let pos = start === undefined || fstatSync(fd).ino !== start.ino ? 0 : start.end;
  let partial = '';
  const buf = Buffer.alloc(64 * 1024);
  const drain = (): void => {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) return;
      pos += n;
      const text = partial + buf.subarray(0, n).toString('utf8');
      const lines = text.split('\n');
      partial = lines.pop()!;
      for (const line of lines) emit(line);
    }
  };
  const step = (): void => {
    if (fd >= 0) drain();
    let current: number | undefined;
    try {
      current = statSync(file).ino;
    } catch {
      current = undefined; // between the rename and the new file: keep the old one
    }
    if (current === undefined) return;
    if (fd < 0 || current !== fstatSync(fd).ino) {
      // Rotated: the old file was read to its end above; the new one is read from its start.
      if (fd >= 0) {
        drain();
        closeSync(fd);
        if (partial !== '') emit(partial);
        partial = '';
      }
      fd = openSync(file, 'r');
      pos = 0;
      drain();
    } else if (fstatSync(fd).size < pos) {
      pos = 0; // truncated in place
      partial = '';
    }
  };
  try {
    await new Promise<void>((resolve) => {
      if (opts.signal?.aborted) return resolve();
      const timer = setInterval(() => {
        try {
          step();
        } catch {
          // A read racing the rotation: the next tick sees the settled state.
        }
      }, opts.pollMs ?? 200);
      opts.signal?.addEventListener(
        'abort',
        () => {
          clearInterval(timer);
          resolve();
        },
        { once: true },
      );
    });
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}
