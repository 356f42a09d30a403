/**
 * Builds the CommandParams a command sends: the flags after env mapping, the
 * positional args as typed, cwd, the relevant env, and what the terminal is
 * (so the daemon decides about color the way a local process would).
 */
import type { CommandParams, FlagValue, TtyInfo } from '../protocol/index.js';
import { relevantEnv } from './env-flags.js';

export function ttyInfo(flags: Record<string, FlagValue>, env: Record<string, string | undefined>): TtyInfo {
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

/**
 * Unique among the requests in flight on one daemon, which is all `request/cancel` needs: no two
 * live processes share a pid, and one process's ids differ by the counter. Not node:crypto's
 * randomUUID, whose module costs the CLI several ms at start-up.
 */
let requestCount = 0;
export function newRequestId(): string {
  return `${process.pid.toString(36)}-${Date.now().toString(36)}-${(requestCount++).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
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
    requestId: newRequestId(),
    args,
    flags: sent,
    cwd: process.cwd(),
    env: relevantEnv(env),
    tty: ttyInfo(flags, env),
    // Files the daemon creates for this user get this user's umask, not the daemon's.
    umask: process.umask(),
  };
}
