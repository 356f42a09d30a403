/**
 * `--root DIR` (and the rc setting `root`): every file a render reads must lie
 * under DIR after `..` and symbolic links are resolved, with every step of a
 * link walk inside DIR (hazards 1-3). The walk is Cleat's (cleat-loader.ts
 * walkInside), so the two confinements cannot drift apart.
 *
 * Invariants: errors name the path as the user or the import wrote it and
 * say "outside the root"; they never print the resolved absolute path nor
 * any file content (hazards 2, 4, 26). A refused path is never read.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInsideRoot } from '../../lang/cleat/index.js';
import { UNREADABLE_LINK, type DependencyRecorder } from '../../cache/index.js';
import { walkInside } from './walk-inside.js';

export class OutsideRootError extends Error {}

/** The real path of the --root directory; throws OutsideRootError when it is not a directory. */
export function realRoot(rootFlag: string, cwd: string): string {
  try {
    return realpathSync(isAbsolute(rootFlag) ? rootFlag : resolve(cwd, rootFlag));
  } catch {
    throw new OutsideRootError(`--root ${rootFlag}: no such directory`);
  }
}

/**
 * `abs` expressed under the real root when only its parent directories differ
 * lexically (the cwd reached through a symlink, /tmp vs /private/tmp): the
 * parent is made real, the last component is left to the walk.
 */
function underRoot(root: string, abs: string): string {
  if (isInsideRoot(root, abs)) return abs;
  for (let dir = dirname(abs), rest = basename(abs); ; rest = join(basename(dir), rest), dir = dirname(dir)) {
    try {
      return join(realpathSync(dir), rest);
    } catch {
      if (dirname(dir) === dir) return abs;
    }
  }
}

export type Confined = { path: string; exists: true } | { path: string; exists: false };

/**
 * Checks `abs` against `root` and returns the path to read (links expanded,
 * every step inside the root) or, for a missing file, the path whose absence
 * to record. `shown` is how the caller names the path in errors. With a
 * recorder, every component the walk looked at (each link and its target,
 * each plain entry) becomes a dependency, as the answer rests on all of them:
 * a link retargeted inside, outside or back invalidates a cached result or error.
 */
export function confine(root: string, abs: string, shown: string, recorder?: DependencyRecorder): Confined {
  const onStep = recorder
    ? (component: string, seen: string | undefined | null): void =>
        recorder.recordLink(component, seen === 'unreadable' ? UNREADABLE_LINK : seen)
    : () => {};
  const walk = walkInside(root, underRoot(root, abs), onStep);
  if ('error' in walk) throw new OutsideRootError(`${shown}: outside the root (${walk.error})`);
  if ('missing' in walk) return { path: walk.missing, exists: false };
  return { path: walk.path, exists: true };
}
