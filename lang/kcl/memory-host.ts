/** An in-memory KclHost (path → text; directories implied by the paths): myks migrate evaluates the tree it is about to write with it, tests and benchmarks use it too. */
import type { KclHost } from './loader.js';

export function memoryHost(files: Record<string, string>): KclHost {
  // A Map, not the record: a keyed read of a dictionary-mode object internalizes the key string
  // first, and every path the loader builds is a new string.
  const byPath = new Map(Object.entries(files));
  let dirs: Map<string, Map<string, boolean>> | undefined;
  const index = (): Map<string, Map<string, boolean>> => {
    if (dirs) return dirs;
    dirs = new Map();
    for (const p of Object.keys(files)) {
      const parts = p.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/') || '/';
        let entries = dirs.get(dir);
        if (!entries) dirs.set(dir, (entries = new Map()));
        entries.set(parts[i]!, i < parts.length - 1);
      }
    }
    return dirs;
  };
  return {
    readFile: (p) => byPath.get(p),
    listDir: (dir) => {
      const entries = index().get(dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir);
      return entries && [...entries].map(([name, isDir]) => ({ name, dir: isDir }));
    },
  };
}
