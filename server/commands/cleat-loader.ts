/**
 * The file side of the Cleat commands: finds the project root and reads files
 * confined to it (spec §4.1, hazards 1, 2 and 10). A path is walked one
 * component at a time from the real root; every symlink is expanded in place
 * and **every step** of the walk must stay inside the root, so an out-and-back
 * link (`../<root>/f`) is refused like `../../etc/x`. Link chains stop after
 * MAX_LINK_HOPS; only regular files are read (lstat before any read, so a
 * FIFO cannot hang the worker). Reads go through the request's
 * DependencyRecorder. Error texts name no absolute host path.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { DependencyRecorder } from '../../cache/index.js';
import type { CleatLoader } from '../../lang/cleat/index.js';
import { lstatOrUndefined, walkInside } from '../remote-inputs/walk-inside.js';
import { KubecfgError } from '../../lang/common/errors.js';

/** A user-facing failure of the Cleat commands' file handling (message already says what and why). */
export class CleatFileError extends KubecfgError {
  readonly code = 'CMD_CLEAT_FILE';
}

export interface ConfinedLoader extends CleatLoader {
  /**
   * True once a read went through a symlink or was refused for a reason the
   * recorder does not capture (link facts, file kinds): such a result must not be cached.
   */
  readonly uncacheable: boolean;
}

/** A CleatLoader over `root` (a real, absolute path) that reads through `recorder`. */
export function confinedLoader(root: string, recorder: DependencyRecorder): ConfinedLoader {
  let uncacheable = false;
  const decoder = new TextDecoder('utf-8');
  return {
    root,
    get uncacheable() {
      return uncacheable;
    },
    read(path: string): string | { error: string } {
      const walk = walkInside(root, path, (_component, seen) => {
        if (seen !== undefined && seen !== null) uncacheable = true;
      });
      if ('error' in walk) {
        uncacheable = true;
        return walk;
      }
      if ('missing' in walk) {
        recorder.probe(walk.missing); // a negative dependency: creating the file invalidates the result
        return { error: 'file not found' };
      }
      const st = lstatOrUndefined(walk.path);
      if (!st?.isFile()) {
        uncacheable = true;
        return { error: 'not a regular file' };
      }
      try {
        return decoder.decode(recorder.readFile(walk.path));
      } catch {
        uncacheable = true;
        return { error: 'cannot read the file' };
      }
    },
  };
}

/**
 * `arg` (relative to `cwd`) as an absolute path whose directory is real
 * (symlinks in the directory part resolved), so it can be compared with a
 * real root. The last component is left for the confined walk to check.
 */
export function realParentPath(cwd: string, arg: string): string {
  const abs = resolve(cwd, arg);
  let dir: string;
  try {
    dir = realpathSync(dirname(abs));
  } catch {
    throw new CleatFileError(`${arg}: no such directory`);
  }
  return join(dir, basename(abs));
}

/**
 * The project root: `--root` if given, else the nearest directory at or above
 * the entry's directory holding `.git` (`/` itself excepted), else the entry's
 * directory. Real path.
 */
export function findProjectRoot(
  entry: string,
  rootFlag: string | undefined,
  cwd: string,
  recorder: DependencyRecorder,
): string {
  if (rootFlag !== undefined && rootFlag !== '') {
    try {
      return realpathSync(isAbsolute(rootFlag) ? rootFlag : resolve(cwd, rootFlag));
    } catch {
      throw new CleatFileError(`--root ${rootFlag}: no such directory`);
    }
  }
  const start = dirname(entry);
  // The filesystem root is not searched (as for the rc file): a negative dependency there makes
  // the daemon's file watcher watch `/`, whose events would invalidate every cached result.
  for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
    if (recorder.probe(join(dir, '.git'))) return dir;
  }
  return start;
}
