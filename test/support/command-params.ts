/**
 * What in-process command tests hand to a command: a terminal that is not a
 * terminal (no colour, no width, so output is what a pipe gets), a run
 * context that never cancels, and request params with the client's cwd.
 */
import type { CommandParams, FlagValue } from '../../protocol/index.js';

export const NO_TTY = {
  stdoutIsTTY: false,
  stderrIsTTY: false,
  columns: null,
  color: 'never',
  noColor: false,
  forceColor: null,
} as const;

export const IN_PROCESS = { shouldStop: (): boolean => false, testHooks: false };

export function commandParams(
  cwd: string,
  args: string[],
  flags: Record<string, FlagValue> = {},
  env: Record<string, string> = {},
): CommandParams {
  return { requestId: 'r', args, flags, cwd, env, tty: NO_TTY };
}
