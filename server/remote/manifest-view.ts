/**
 * Questions about a manifest (root-relative path → digest) that a remote
 * render's recorded dependencies ask again on a later request: is this path a
 * file and with which digest, does it exist (as file or directory), and what
 * does a directory list. A directory exists exactly when some manifest file
 * lies under it, which is also what the materialised work directory shows.
 */
import { createHash } from 'node:crypto';

export class ManifestView {
  private dirs: Map<string, Set<string>> | undefined;

  constructor(readonly files: Readonly<Record<string, string>>) {}

  /** dir → its direct children as `name/` (directory) or `name` (file); '.' is the root. */
  private children(): Map<string, Set<string>> {
    if (this.dirs) return this.dirs;
    const dirs = new Map<string, Set<string>>([['.', new Set()]]);
    for (const path of Object.keys(this.files)) {
      const parts = path.split('/');
      let dir = '.';
      for (let i = 0; i < parts.length; i++) {
        const last = i === parts.length - 1;
        let set = dirs.get(dir);
        if (!set) dirs.set(dir, (set = new Set()));
        set.add(last ? parts[i]! : parts[i]! + '/');
        dir = dir === '.' ? parts[i]! : `${dir}/${parts[i]}`;
      }
    }
    return (this.dirs = dirs);
  }

  fileDigest(path: string): string | undefined {
    return Object.prototype.hasOwnProperty.call(this.files, path) ? this.files[path] : undefined;
  }

  exists(path: string): boolean {
    return this.fileDigest(path) !== undefined || this.children().has(path);
  }

  /** Digest of a directory's sorted entries, or undefined when it is not a directory. */
  listingDigest(path: string): string | undefined {
    const set = this.children().get(path);
    if (!set) return undefined;
    return createHash('sha256')
      .update([...set].sort().join('\0'))
      .digest('hex');
  }

  /** One digest for the whole manifest (the poison-input key of hazard 20). */
  digest(): string {
    const hash = createHash('sha256');
    for (const path of Object.keys(this.files).sort())
      hash.update(path).update('\0').update(this.files[path]!).update('\n');
    return hash.digest('hex');
  }
}
