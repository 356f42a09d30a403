/**
 * Collects what a command prints and decides about color the way a local
 * process would, from the client's terminal facts (TtyInfo): --color wins,
 * then FORCE_COLOR, then NO_COLOR, then "is that stream a terminal" (stderr for
 * log lines, stdout for diff hunks).
 */
import type { FileDep } from '../../cache/index.js';
import { logLine, type CommandParams, type LogLevel, type LogStyle, type TtyInfo } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';

export { colorEnabled, logLine, logStyle, type LogLevel, type LogStyle } from '../../protocol/index.js';

/** Progress lines (pack pushes): `--progress` / `--progress=false` when given, else when stderr is a terminal. */
export function progressEnabled(flags: CommandParams['flags'], tty: TtyInfo): boolean {
  const given = flags['progress'];
  return typeof given === 'boolean' ? given : tty.stderrIsTTY;
}

/** A byte count as progress lines print it. */
export function sizeText(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;
}

export class CommandOutput {
  private readonly out: string[] = [];
  private readonly err: string[] = [];

  constructor(private readonly style: LogStyle) {}

  stdout(text: string): void {
    this.out.push(text);
  }

  /** One kubecfg-style log line (see logLine). */
  log(level: LogLevel, message: string): void {
    this.err.push(logLine(this.style, level, message));
  }

  /** Raw stderr text (e.g. a Jsonnet error already formatted like the jsonnet command's). */
  stderr(text: string): void {
    this.err.push(text);
  }

  stdoutText(): string {
    return this.out.join('');
  }

  stderrText(): string {
    return this.err.join('');
  }

  /** The command's outcome: what it printed (stdout only when it succeeded, as kubecfg prints nothing on failure). */
  outcome(exitCode: number, deps: FileDep[], cacheable: boolean): CommandOutcome {
    return { exitCode, stdout: exitCode === 0 ? this.stdoutText() : '', stderr: this.stderrText(), deps, cacheable };
  }
}

/** The std.trace sink of a command: each line on its stderr, as go-jsonnet (and so kubecfg) prints them. */
export function traceTo(out: CommandOutput): (line: string) => void {
  return (line) => out.stderr(line + '\n');
}
