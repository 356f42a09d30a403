// The git revision pack records in org.opencontainers.image.revision: HEAD's commit hash of the
// repository containing a path, read from .git without running git (loose ref, packed-refs,
// detached HEAD, and `.git` files of worktrees/submodules). Like kubecfg, "unknown" when the path
// is not in a git repository or HEAD cannot be resolved (e.g. an empty repository).
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const HASH = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

export async function gitRevision(startPath: string): Promise<string> {
  const gitDir = await findGitDir(resolve(startPath));
  if (gitDir === undefined) return 'unknown';
  return (await resolveHead(gitDir)) ?? 'unknown';
}

async function findGitDir(start: string): Promise<string | undefined> {
  let dir = start;
  for (let depth = 0; depth < 256; depth++) {
    const candidate = join(dir, '.git');
    const st = await stat(candidate).catch(() => undefined);
    if (st?.isDirectory() === true) return candidate;
    if (st?.isFile() === true) {
      const text = await readSmall(candidate);
      const m = text === undefined ? null : /^gitdir: (.+)$/m.exec(text);
      if (m !== null) return isAbsolute(m[1]!.trim()) ? m[1]!.trim() : resolve(dir, m[1]!.trim());
      return undefined;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

async function resolveHead(gitDir: string): Promise<string | undefined> {
  const head = (await readSmall(join(gitDir, 'HEAD')))?.trim();
  if (head === undefined) return undefined;
  if (HASH.test(head)) return head;
  const m = /^ref: (refs\/[^\s]+)$/.exec(head);
  if (m === null || m[1]!.split('/').includes('..')) return undefined;
  const ref = m[1]!;
  // Worktrees keep their HEAD locally but share refs with the main repository ("commondir").
  const common = (await readSmall(join(gitDir, 'commondir')))?.trim();
  const refDirs = common === undefined ? [gitDir] : [gitDir, resolve(gitDir, common)];
  for (const dir of refDirs) {
    const loose = (await readSmall(join(dir, ref)))?.trim();
    if (loose !== undefined && HASH.test(loose)) return loose;
    const packed = await readSmall(join(dir, 'packed-refs'));
    if (packed !== undefined) {
      for (const line of packed.split('\n')) {
        const [hash, name] = line.trim().split(' ');
        if (name === ref && hash !== undefined && HASH.test(hash)) return hash;
      }
    }
  }
  return undefined;
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const st = await stat(path);
    if (!st.isFile() || st.size > 16 * 1024 * 1024) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
