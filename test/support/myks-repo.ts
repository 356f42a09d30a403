/** A legacy myks repository held in memory (path -> text), as myks migrate's host reads it. */
import type { MigrateHost } from '../../lang/myks/migrate.js';

export function repo(files: Record<string, string>): MigrateHost {
  const dirs = new Map<string, Map<string, boolean>>();
  for (const p of Object.keys(files)) {
    const parts = p.split('/');
    for (let i = 0; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirs.has(d)) dirs.set(d, new Map());
      dirs.get(d)!.set(parts[i]!, i < parts.length - 1);
    }
  }
  return {
    read: (p) => files[p],
    list: (d) => {
      const e = dirs.get(d);
      return e && [...e].map(([name, dir]) => ({ name, dir }));
    },
  };
}
