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
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isInsideRoot } from '../../lang/cleat/index.js';
import { UNREADABLE_LINK, type DependencyRecorder } from '../../cache/index.js';
import { walkInside } from './walk-inside.js';

export class OutsideRootError extends Error {}

const MAX_PATH_HOPS = 40;

/**
 * Records every symbolic link met while resolving `abs` from / (and the links on the way to each
 * target), with what it points at: a real path computed through them rests on them, so retargeting
 * a link above the root (`--root link`, `link -> repoA` becoming `repoB`) invalidates what was
 * rendered through it. Plain directories are not recorded: watching /, /home, ... would cost a
 * watch each for a change nobody makes.
 */
function recordLinksOnPath(abs: string, recorder: DependencyRecorder | undefined): void {
  if (!recorder) return;
  const rest = abs.split('/').filter((c) => c !== '');
  let cur = '/';
  for (let hops = 0; rest.length > 0;) {
    const part = rest.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, part);
    let target: string;
    try {
      if (!lstatSync(next).isSymbolicLink()) {
        cur = next;
        continue;
      }
      target = readlinkSync(next);
    } catch {
      return; // missing or unreadable: the caller's own check reports it
    }
    recorder.recordLink(next, target);
    if (++hops > MAX_PATH_HOPS) return;
    rest.unshift(...target.split('/').filter((c) => c !== ''));
    if (target.startsWith('/')) cur = '/';
  }
}

/**
 * The real path of the --root directory; throws OutsideRootError when it is not a directory. With
 * a recorder, the links on the way to it become dependencies.
 */
export function realRoot(rootFlag: string, cwd: string, recorder?: DependencyRecorder): string {
  const abs = isAbsolute(rootFlag) ? rootFlag : resolve(cwd, rootFlag);
  recordLinksOnPath(abs, recorder);
  try {
    return realpathSync(abs);
  } catch {
    throw new OutsideRootError(`--root ${rootFlag}: no such directory`);
  }
}

/**
 * `abs` expressed under the real root when only its parent directories differ
 * lexically (the cwd reached through a symlink, /tmp vs /private/tmp): the
 * parent is made real, the last component is left to the walk.
 */
function underRoot(root: string, abs: string, recorder: DependencyRecorder | undefined): string {
  if (isInsideRoot(root, abs)) return abs;
  recordLinksOnPath(dirname(abs), recorder);
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
  const walk = walkInside(root, underRoot(root, abs, recorder), onStep);
  if ('error' in walk) throw new OutsideRootError(`${shown}: outside the root (${walk.error})`);
  if ('missing' in walk) return { path: walk.missing, exists: false };
  return { path: walk.path, exists: true };
}
