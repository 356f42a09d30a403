/**
 * kubecfg's log line, shared by the daemon (command output) and the CLI (usage errors). kubecfg's
 * logFormatter over logrus writes the level word (padded to five columns, then a space, coloured)
 * only when stderr is a terminal, and the bare message otherwise, so a CI log reads
 * `Updating configmaps default.web`. --color=always / FORCE_COLOR colour it on a pipe too;
 * --color=never / NO_COLOR on a terminal keep the word without colour.
 */
import type { TtyInfo } from './methods.js';

export type LogStyle = 'bare' | 'plain' | 'color';
export type LogLevel = 'INFO' | 'WARNING' | 'ERROR';

/** --color wins, then FORCE_COLOR, then NO_COLOR, then "is that stream a terminal". */
export function colorEnabled(tty: TtyInfo, stream: 'stdout' | 'stderr' = 'stderr'): boolean {
  if (tty.color === 'never') return false;
  if (tty.color === 'always') return true;
  if (tty.forceColor !== null && tty.forceColor !== '') return tty.forceColor !== '0' && tty.forceColor !== 'false';
  if (tty.noColor) return false;
  return stream === 'stdout' ? tty.stdoutIsTTY : tty.stderrIsTTY;
}

export function logStyle(tty: TtyInfo): LogStyle {
  if (colorEnabled(tty, 'stderr')) return 'color';
  return tty.stderrIsTTY ? 'plain' : 'bare';
}

const LEVEL_COLOR: Record<LogLevel, number> = { INFO: 34, WARNING: 33, ERROR: 31 };

/** One line as kubecfg prints it: `ESC[31mERROR ESC[0mmessage`, `ERROR message`, or the message alone. */
export function logLine(style: LogStyle, level: LogLevel, message: string): string {
  const text = message.trim();
  if (style === 'bare') return `${text}\n`;
  const word = `${level.padEnd(5)} `;
  return style === 'color' ? `\u001b[${LEVEL_COLOR[level]}m${word}\u001b[0m${text}\n` : `${word}${text}\n`;
}
