/** An in-memory KclHost for tests: a map of path → text; directories are implied by the paths. */
import type { KclHost } from './loader.js';

export function memoryHost(files: Record<string, string>): KclHost {
  return {
    readFile: (p) => files[p],
    listDir: (dir) => {
      const prefix = dir.endsWith('/') ? dir : dir + '/';
      const seen = new Map<string, boolean>();
      for (const p of Object.keys(files)) {
        if (!p.startsWith(prefix)) continue;
        const rest = p.slice(prefix.length);
        const slash = rest.indexOf('/');
        seen.set(slash < 0 ? rest : rest.slice(0, slash), slash >= 0);
      }
      if (seen.size === 0) return undefined;
      return [...seen].map(([name, dir]) => ({ name, dir }));
    },
  };
}
