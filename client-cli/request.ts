/**
 * Builds the CommandParams a command sends: the flags after env mapping, the
 * positional args as typed, cwd, the relevant env, and what the terminal is
 * (so the daemon decides about color the way a local process would).
 */
import { randomUUID } from 'node:crypto';
import type { CommandParams, FlagValue, TtyInfo } from '../protocol/index.js';
import { relevantEnv } from './env-flags.js';

function ttyInfo(flags: Record<string, FlagValue>, env: Record<string, string | undefined>): TtyInfo {
  const color = flags.color;
  return {
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    columns: process.stdout.isTTY ? (process.stdout.columns ?? null) : null,
    color: color === 'always' || color === 'never' ? color : 'auto',
    noColor: env.NO_COLOR !== undefined && env.NO_COLOR !== '',
    forceColor: env.FORCE_COLOR ?? null,
  };
}

const CLI_ONLY_FLAGS = new Set(['no-daemon', 'daemon-url', 'daemon-token-file']);

export function buildCommandParams(
  args: string[],
  flags: Record<string, FlagValue>,
  env: Record<string, string | undefined>,
): CommandParams {
  // Flags the CLI consumes itself never travel.
  const sent: Record<string, FlagValue> = {};
  for (const [k, v] of Object.entries(flags)) if (!CLI_ONLY_FLAGS.has(k)) sent[k] = v;
  return {
    requestId: randomUUID(),
    args,
    flags: sent,
    cwd: process.cwd(),
    env: relevantEnv(env),
    tty: ttyInfo(flags, env),
    // Files the daemon creates for this user get this user's umask, not the daemon's.
    umask: process.umask(),
  };
}
