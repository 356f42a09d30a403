/**
 * A KCL package is a directory imported by its path, so every environment
 * level directory must be named by identifiers. A level whose name is not
 * one is written under the identifier (`envs/prod-eu/` → `envs/prod_eu/`),
 * as prototype directories are, and each rename is reported; a sibling that
 * already has that name pushes the new one on (`prod_eu_2`). The legacy
 * directory stays as it is: its data-values files are not the KCL tree's.
 */
import { isIdent, toIdent } from './kcl-write.js';

export interface LevelDirs {
  /** legacy level path → the KCL tree's */
  kclPath(level: string): string;
  /** a written file's path under the KCL level directory */
  rename(path: string): string;
  /** `import` path of a level */
  pkg(level: string): string;
  /** one report per renamed directory */
  renames: string[];
}

export function levelDirs(levels: readonly string[]): LevelDirs {
  const map = new Map<string, string>();
  const renames: string[] = [];
  const taken = new Map<string, Set<string>>();
  for (const l of levels) {
    const i = l.lastIndexOf('/');
    if (i < 0) {
      map.set(l, l);
      continue;
    }
    const parent = l.slice(0, i);
    const seg = l.slice(i + 1);
    const kParent = map.get(parent) ?? parent;
    let siblings = taken.get(kParent);
    if (!siblings)
      taken.set(
        kParent,
        (siblings = new Set(
          levels
            .filter(
              (x) =>
                x.startsWith(`${parent}/`) &&
                !x.slice(parent.length + 1).includes('/') &&
                isIdent(x.slice(parent.length + 1)),
            )
            .map((x) => x.slice(parent.length + 1)),
        )),
      );
    let id = seg;
    if (!isIdent(seg)) {
      const base = toIdent(seg);
      id = base;
      for (let n = 2; siblings.has(id); n++) id = `${base}_${n}`;
      siblings.add(id);
      renames.push(`${l}: renamed to ${kParent}/${id} (a KCL package name must be an identifier)`);
    }
    map.set(l, `${kParent}/${id}`);
  }
  const kclPath = (l: string): string => map.get(l) ?? l;
  return {
    kclPath,
    rename: (p) => {
      const i = p.lastIndexOf('/');
      return i < 0 ? p : `${kclPath(p.slice(0, i))}${p.slice(i)}`;
    },
    pkg: (l) => kclPath(l).split('/').join('.'),
    renames,
  };
}
