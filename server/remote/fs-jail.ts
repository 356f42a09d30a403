/**
 * The render child's file-system jail (hazards 1-5): once installed, every
 * path-taking `node:fs` function (sync, callback and promise forms) answers
 * only for paths inside the request's work directory. A path outside it is
 * reported missing (ENOENT, with no path in the message): the render "reads
 * only files in the manifest; imports outside it fail as missing" and never
 * touches the server's disk. Every write is refused (EROFS): a remote render
 * has no business writing files.
 *
 * Invariants: the work directory holds only regular files and directories the
 * server created (no symlinks), so a lexical check of the resolved absolute
 * path is exact; the check runs before the real call; fd-based calls (fstat,
 * read, close) need no check because only a jailed open hands out an fd. The
 * jail is installed after every module is loaded (the module loader itself
 * does not use the public fs functions), and `syncBuiltinESMExports` makes
 * ESM imports of node:fs see the wrappers.
 */
import * as fsCjs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const READ_FNS = [
  'stat',
  'lstat',
  'readFile',
  'readdir',
  'realpath',
  'readlink',
  'access',
  'opendir',
  'statfs',
] as const;
const WRITE_FNS = [
  'writeFile',
  'appendFile',
  'mkdir',
  'mkdtemp',
  'rm',
  'rmdir',
  'unlink',
  'rename',
  'copyFile',
  'cp',
  'symlink',
  'link',
  'chmod',
  'lchmod',
  'chown',
  'lchown',
  'truncate',
  'utimes',
  'lutimes',
] as const;

function jailError(code: 'ENOENT' | 'EROFS', syscall: string): NodeJS.ErrnoException {
  const text = code === 'ENOENT' ? 'no such file or directory' : 'read-only file system';
  return Object.assign(new Error(`${code}: ${text}, ${syscall}`), {
    code,
    errno: code === 'ENOENT' ? -2 : -30,
    syscall,
  });
}

function toPath(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (arg instanceof URL) return arg.protocol === 'file:' ? fileURLToPath(arg) : undefined;
  if (Buffer.isBuffer(arg)) return arg.toString('utf8');
  return undefined;
}

const WRITE_OPEN =
  fsCjs.constants.O_WRONLY |
  fsCjs.constants.O_RDWR |
  fsCjs.constants.O_CREAT |
  fsCjs.constants.O_TRUNC |
  fsCjs.constants.O_APPEND;

function openWrites(flags: unknown): boolean {
  if (flags === undefined || flags === null) return false;
  if (typeof flags === 'number') return (flags & WRITE_OPEN) !== 0;
  return typeof flags === 'string' && flags !== 'r' && flags !== 'rs' && flags !== 'sr';
}

type AnyFn = (...args: unknown[]) => unknown;

/**
 * Installs the jail; `root()` names the current request's directory (absolute,
 * symlink-free; a warm child moves it between requests). Irreversible for this process.
 */
export function installFsJail(root: () => string): void {
  const inside = (arg: unknown): boolean => {
    const p = toPath(arg);
    if (p === undefined || p.includes('\0')) return false;
    const base = resolve(root());
    const abs = resolve(p);
    return abs === base || abs.startsWith(base + sep);
  };
  const fs = createRequire(import.meta.url)('node:fs') as Record<string, unknown> & {
    promises: Record<string, unknown>;
  };
  const promises = fs.promises;

  const wrapRead = (target: Record<string, unknown>, name: string, kind: 'sync' | 'callback' | 'promise'): void => {
    const real = target[name];
    if (typeof real !== 'function') return;
    const syscall = name.replace(/Sync$/, '');
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      if (!inside(args[0])) {
        const err = jailError('ENOENT', syscall);
        if (name === 'existsSync') return false;
        // statSync(p, { throwIfNoEntry: false }) answers undefined for a missing path, as Node does.
        if (
          (name === 'statSync' || name === 'lstatSync') &&
          (args[1] as { throwIfNoEntry?: boolean } | undefined)?.throwIfNoEntry === false
        )
          return undefined;
        if (kind === 'promise') return Promise.reject(err);
        if (kind === 'callback') {
          const cb = args[args.length - 1];
          if (typeof cb === 'function') {
            process.nextTick(() => (cb as AnyFn)(err));
            return undefined;
          }
        }
        throw err;
      }
      return (real as AnyFn).apply(this, args);
    };
    // realpathSync.native and friends keep working through the wrapper.
    for (const key of Object.keys(real))
      (wrapped as unknown as Record<string, unknown>)[key] = (real as unknown as Record<string, unknown>)[key];
    target[name] = wrapped;
  };
  const wrapWrite = (target: Record<string, unknown>, name: string, kind: 'sync' | 'callback' | 'promise'): void => {
    if (typeof target[name] !== 'function') return;
    const syscall = name.replace(/Sync$/, '');
    target[name] = function (...args: unknown[]): unknown {
      const err = jailError('EROFS', syscall);
      if (kind === 'promise') return Promise.reject(err);
      const cb = args[args.length - 1];
      if (kind === 'callback' && typeof cb === 'function') {
        process.nextTick(() => (cb as AnyFn)(err));
        return undefined;
      }
      throw err;
    };
  };
  const wrapOpen = (target: Record<string, unknown>, name: string, kind: 'sync' | 'callback' | 'promise'): void => {
    const real = target[name];
    if (typeof real !== 'function') return;
    target[name] = function (this: unknown, ...args: unknown[]): unknown {
      const writes = openWrites(args[1]);
      if (writes || !inside(args[0])) {
        const err = jailError(writes ? 'EROFS' : 'ENOENT', 'open');
        if (kind === 'promise') return Promise.reject(err);
        const cb = args[args.length - 1];
        if (kind === 'callback' && typeof cb === 'function') {
          process.nextTick(() => (cb as AnyFn)(err));
          return undefined;
        }
        throw err;
      }
      return (real as AnyFn).apply(this, args);
    };
  };

  for (const n of READ_FNS) {
    wrapRead(fs, `${n}Sync`, 'sync');
    wrapRead(fs, n, 'callback');
    wrapRead(promises, n, 'promise');
  }
  wrapRead(fs, 'existsSync', 'sync');
  wrapRead(fs, 'exists', 'callback');
  wrapRead(fs, 'createReadStream', 'sync');
  wrapRead(fs, 'watch', 'sync');
  wrapRead(fs, 'watchFile', 'sync');
  for (const n of WRITE_FNS) {
    wrapWrite(fs, `${n}Sync`, 'sync');
    wrapWrite(fs, n, 'callback');
    wrapWrite(promises, n, 'promise');
  }
  wrapWrite(fs, 'createWriteStream', 'sync');
  wrapOpen(fs, 'openSync', 'sync');
  wrapOpen(fs, 'open', 'callback');
  wrapOpen(promises, 'open', 'promise');
  syncBuiltinESMExports();
}
