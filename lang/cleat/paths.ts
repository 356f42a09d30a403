/**
 * Import paths and the project-root rule (spec §4.1, hazards 1–3), as pure
 * string functions over POSIX paths. `..` and `.` are resolved lexically here;
 * symlinks are the loader's job: it must call `checkInsideRoot` again on the
 * real path of every step (see docs/cleat.md). Messages name the import as
 * written and root-relative paths only, never absolute host paths.
 */
import { posix } from 'node:path';

/** Lexically normalizes a POSIX path (`a/./b/../c` → `a/c`), keeping it absolute if it was. */
export function normalizePath(p: string): string {
  return posix.normalize(p).replace(/(.)\/$/, '$1');
}

/** True when `path` is `root` or lies under it (a trailing-separator prefix check: /repo2 is not in /repo). */
export function isInsideRoot(root: string, path: string): boolean {
  const r = normalizePath(root);
  const p = normalizePath(path);
  if (r === '/') return p.startsWith('/');
  return p === r || p.startsWith(`${r}/`);
}

/**
 * Resolves an import written in `importer` (an absolute path) against its
 * directory and checks it stays inside `root`. Returns the absolute path, or
 * why the import is refused.
 */
export function resolveImportPath(root: string, importer: string, spec: string): { path: string } | { error: string } {
  if (spec === '' || spec.includes('\0')) return { error: `invalid import path ${JSON.stringify(spec)}` };
  if (spec.startsWith('/'))
    return { error: `import path ${JSON.stringify(spec)} is absolute; imports are relative to the importing file` };
  const path = normalizePath(posix.join(posix.dirname(importer), spec));
  if (!isInsideRoot(root, path)) return { error: `import ${JSON.stringify(spec)} leaves the project root` };
  return { path };
}

/** `path` relative to `root` for messages (`./` form). */
export function displayPath(root: string, path: string): string {
  const rel = posix.relative(normalizePath(root), normalizePath(path));
  return rel === '' ? '.' : rel;
}
