/**
 * A remote render's work directory (hazard 5): a fresh directory named by 128
 * CSPRNG bits, mode 0700, under the service's 0700 work base, holding exactly
 * the manifest's files copied from the tenant's blob store (regular files and
 * directories only: no symlinks, so the child's jail can check paths
 * lexically). Removed after the request, whatever happened.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BlobStore } from './blob-store.js';

export class WorkdirError extends Error {}

export interface Workdir {
  dir: string;
  remove(): void;
}

export function materialise(base: string, store: BlobStore, tenant: string, manifest: Record<string, string>): Workdir {
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const dir = join(base, randomBytes(16).toString('hex'));
  mkdirSync(dir, { mode: 0o700 });
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const made = new Set<string>();
    for (const path of Object.keys(manifest).sort()) {
      const parent = dirname(path);
      if (parent !== '.' && !made.has(parent)) {
        mkdirSync(join(dir, parent), { recursive: true, mode: 0o700 });
        made.add(parent);
      }
      store.copyTo(tenant, manifest[path]!, join(dir, path));
    }
  } catch (err) {
    remove();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR')
      throw new WorkdirError('the manifest names a path both as a file and as a directory');
    throw err;
  }
  return { dir, remove };
}
