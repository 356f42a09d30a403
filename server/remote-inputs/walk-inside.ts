/**
 * Walks a path one component at a time from a real root, expanding every
 * symlink in place and refusing any step that leaves the root (so an
 * out-and-back link `../<root>/f` is refused like `../../etc/x`); link chains
 * stop after MAX_LINK_HOPS. Shared by --root confinement (root-confine.ts)
 * and the Cleat commands' loader (server/commands/cleat-loader.ts).
 */
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { posix } from 'node:path';
import { isInsideRoot, normalizePath } from '../../lang/cleat/index.js';

const MAX_LINK_HOPS = 10;

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

export type Walk = { path: string } | { missing: string } | { error: string };

/**
 * What the walk saw at one component, symlinks not followed: the link target, undefined for an
 * entry that is no symlink, null for nothing there, 'unreadable' for a link it could not read.
 */
export type StepSeen = string | undefined | null | 'unreadable';

/**
 * Expands `path` (absolute, lexically inside `root`) link by link, checking each step against
 * `root`. `onStep` hears every component looked at, so a caller can make each of them a
 * dependency of what it reads (a retargeted link then invalidates).
 */
export function walkInside(root: string, path: string, onStep: (component: string, seen: StepSeen) => void): Walk {
  if (!isInsideRoot(root, path)) return { error: 'leaves the project root' };
  const rest = posix
    .relative(root, normalizePath(path))
    .split('/')
    .filter((c) => c !== '');
  let cur = root;
  let hops = 0;
  while (rest.length > 0) {
    const part = rest.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      cur = posix.dirname(cur);
      if (!isInsideRoot(root, cur)) return { error: 'a symbolic link leads outside the project root' };
      continue;
    }
    const next = posix.join(cur, part);
    const st = lstatOrUndefined(next);
    if (!st) {
      onStep(next, null);
      return { missing: next };
    }
    if (st.isSymbolicLink()) {
      if (++hops > MAX_LINK_HOPS) {
        onStep(next, 'unreadable');
        return { error: `more than ${MAX_LINK_HOPS} symbolic links (a cycle?)` };
      }
      let target: string;
      try {
        target = readlinkSync(next);
      } catch {
        onStep(next, 'unreadable');
        return { error: 'unreadable symbolic link' };
      }
      onStep(next, target);
      if (target === '' || target.includes('\0')) return { error: 'invalid symbolic link' };
      if (target.startsWith('/')) {
        const abs = normalizePath(target);
        if (!isInsideRoot(root, abs)) return { error: 'a symbolic link leads outside the project root' };
        cur = root;
        rest.unshift(
          ...posix
            .relative(root, abs)
            .split('/')
            .filter((c) => c !== ''),
        );
      } else {
        rest.unshift(...target.split('/').filter((c) => c !== ''));
      }
      continue;
    }
    onStep(next, undefined);
    if (rest.length > 0 && !st.isDirectory()) return { error: 'not a directory' };
    cur = next;
  }
  return { path: cur };
}
