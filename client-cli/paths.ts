/**
 * Where the daemon's files live, and the security check on their directory.
 *
 * Runtime dir: `$XDG_RUNTIME_DIR/kubecfg/`, else `/tmp/kubecfg-$UID/`. When the
 * socket path would exceed sun_path (107 usable bytes on Linux) we fall back to
 * a short `/tmp/kubecfg-$UID-<hash>/` derived from the long one, so two long
 * runtime dirs never share a socket. State (logs): `$XDG_STATE_HOME/kubecfg/`,
 * else `~/.local/state/kubecfg/`.
 *
 * Hazard 29: security comes from the directory. It must be a real directory
 * (not a symlink), owned by us, with no group/other bits. We refuse anything
 * else rather than "fixing" it, since a dir another user controls could be
 * swapped under us. Used by both the CLI and the daemon (server imports it).
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export const SUN_PATH_MAX = 107;

export interface DaemonPaths {
  dir: string;
  socket: string;
  lock: string;
  /** Breaking a stale lock is itself guarded by this O_EXCL file. */
  lockBreak: string;
  /** Bearer token for the optional TCP listener (0600). */
  token: string;
  /** JSON written by a running daemon: pid, build id, TCP address. */
  info: string;
  stateDir: string;
  logFile: string;
}

type Env = Record<string, string | undefined>;

export function currentUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

export function runtimeDirFor(env: Env, uid: number): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && isAbsolute(xdg)) {
    const dir = join(xdg, 'kubecfg');
    if (Buffer.byteLength(join(dir, 'daemon.sock')) <= SUN_PATH_MAX) return dir;
    const digest = createHash('sha256').update(dir).digest('hex').slice(0, 12);
    return `/tmp/kubecfg-${uid}-${digest}`;
  }
  return `/tmp/kubecfg-${uid}`;
}

export function stateDirFor(env: Env): string {
  const xdg = env.XDG_STATE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'kubecfg');
  return join(env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir(), '.local', 'state', 'kubecfg');
}

export function daemonPaths(env: Env = process.env, uid: number = currentUid()): DaemonPaths {
  const dir = runtimeDirFor(env, uid);
  const stateDir = stateDirFor(env);
  return {
    dir,
    socket: join(dir, 'daemon.sock'),
    lock: join(dir, 'daemon.lock'),
    lockBreak: join(dir, 'daemon.lock.break'),
    token: join(dir, 'tcp-token'),
    info: join(dir, 'daemon.json'),
    stateDir,
    logFile: join(stateDir, 'daemon.log'),
  };
}

export class InsecureDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InsecureDirError';
  }
}

/**
 * Creates `dir` 0700 if absent (parents too), then verifies it. Throws
 * InsecureDirError saying what is wrong and how to fix it.
 */
export function ensureSecureDir(dir: string, uid: number = currentUid()): void {
  let created = false;
  try {
    mkdirSync(dir, { mode: 0o700 });
    created = true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      created = true;
    } else if (code !== 'EEXIST') {
      throw new InsecureDirError(`cannot create the daemon directory ${dir}: ${(err as Error).message}`);
    }
  }
  if (created) chmodSync(dir, 0o700); // the umask may have removed owner bits
  checkSecureDir(dir, uid);
}

export function checkSecureDir(dir: string, uid: number = currentUid()): void {
  const st = lstatSync(dir);
  if (st.isSymbolicLink()) {
    throw new InsecureDirError(
      `refusing to use ${dir}: it is a symbolic link; remove it (kubecfg recreates it as a private directory)`,
    );
  }
  if (!st.isDirectory()) throw new InsecureDirError(`refusing to use ${dir}: it is not a directory`);
  if (st.uid !== uid) {
    throw new InsecureDirError(`refusing to use ${dir}: it is owned by uid ${st.uid}, not by you (uid ${uid})`);
  }
  const mode = st.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new InsecureDirError(
      `refusing to use ${dir}: its mode is 0${mode.toString(8)}, but only its owner may have access (fix: chmod 700 ${dir})`,
    );
  }
}

/**
 * Set by the launcher to the descriptor (3) the spawned daemon writes its status line to, its stderr
 * being the log file already; unset, the daemon reports on stderr (`daemon start --foreground`, tests).
 */
export const DAEMON_STATUS_FD_ENV = 'KUBECFG_DAEMON_STATUS_FD';
