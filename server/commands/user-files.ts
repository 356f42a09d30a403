/**
 * Writing files on the user's behalf: the daemon runs with umask 077 and may
 * run as another user (root), so nothing it writes may take the daemon's
 * defaults. New files and directories get the mode the calling CLI's own
 * process would give them (0666/0777 less the umask it sent, CommandParams.umask);
 * an existing file that is rewritten keeps its mode, owner and group.
 *
 * Invariants: modes are set explicitly with fchmod/chmod, so the daemon's
 * process umask never applies; a rewritten file is replaced atomically
 * (temp file + rename) only when the temp file can be given the original's
 * owner and mode, otherwise it is rewritten in place, which keeps both.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/** What the CLI's process would use when the client sent none (older client or raw RPC). */
const DEFAULT_UMASK = 0o022;

export function umaskOf(params: { umask?: number }): number {
  return params.umask ?? DEFAULT_UMASK;
}

/** mkdir -p where every directory created gets 0777 less `umask`. */
export function makeDirs(dir: string, umask: number): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  const mode = 0o777 & ~umask;
  chmodSync(first, mode);
  const rest = relative(first, dir);
  if (rest === '') return;
  let cur = first;
  for (const part of rest.split(sep)) {
    cur = `${cur}${sep}${part}`;
    chmodSync(cur, mode);
  }
}

/** Writes `data` to `path`, creating its directories; a new file gets 0666 less `umask`. */
export function writeUserFile(
  path: string,
  data: string | Uint8Array,
  umask: number,
  opts: { exclusive?: boolean } = {},
): void {
  makeDirs(dirname(path), umask);
  let existed = false;
  try {
    existed = statSync(path).isFile();
  } catch {
    existed = false;
  }
  const fd = openSync(path, opts.exclusive ? 'wx' : 'w', 0o600);
  try {
    if (!existed) fchmodSync(fd, 0o666 & ~umask);
    writeAll(fd, data);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < bytes.byteLength) off += writeSync(fd, bytes, off, bytes.byteLength - off);
}

/**
 * Replaces `path` atomically (a temp file beside it, then rename: a crash never
 * leaves half a file). An existing file keeps its mode, owner and group: the
 * temp file is given them, or, when the owner cannot be copied (the daemon is
 * not root), the file is rewritten in place, which keeps both. A new file gets
 * 0666 less `umask`, its missing directories 0777 less `umask`.
 */
export function replaceUserFile(path: string, data: string | Uint8Array, umask: number): void {
  let st: Stats | undefined;
  try {
    st = statSync(path);
  } catch {
    st = undefined;
  }
  if (st === undefined) makeDirs(dirname(path), umask);
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'wx', 0o600);
  } catch (err) {
    if (st === undefined) throw err;
    writeFileSync(path, data); // the directory refuses new entries: O_TRUNC keeps mode and owner
    return;
  }
  let renamed = false;
  try {
    if (st !== undefined) {
      const mine = fstatSync(fd);
      if (mine.uid !== st.uid || mine.gid !== st.gid) fchownSync(fd, st.uid, st.gid);
      fchmodSync(fd, st.mode & 0o7777);
    } else fchmodSync(fd, 0o666 & ~umask);
    writeAll(fd, data);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
    renamed = true;
  } catch (err) {
    // Owner not copyable (not root) or the rename refused: in place keeps both.
    if (st === undefined) throw err;
  } finally {
    if (fd >= 0) closeSync(fd);
    if (!renamed) rmSync(tmp, { force: true });
  }
  if (!renamed) writeFileSync(path, data);
}
