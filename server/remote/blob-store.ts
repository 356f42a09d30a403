/**
 * Per-tenant content-addressed blob store on disk:
 * `<root>/<tenant>/<algo>/<2 hex>/<hex>`. A blob is written only after its
 * bytes were checked against its digest (sha256, or git's blob id
 * `sha1("blob <len>\0" + bytes)`), to a temp name then renamed, so a reader
 * never sees a partial blob. Tenants never share a directory, so tenant B
 * cannot use tenant A's blobs even when it names the same digest (it must
 * upload the bytes itself). Each tenant's store is bounded by bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  constants as fsConstants,
  mkdirSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export class BlobError extends Error {}

function digestBytes(algo: 'sha256' | 'git-sha1', bytes: Uint8Array): string {
  if (algo === 'sha256') return 'sha256:' + createHash('sha256').update(bytes).digest('hex');
  const hash = createHash('sha1');
  hash.update(`blob ${bytes.byteLength}\0`);
  hash.update(bytes);
  return 'git-sha1:' + hash.digest('hex');
}

function split(digest: string): { algo: 'sha256' | 'git-sha1'; hex: string } {
  const colon = digest.indexOf(':');
  const algo = digest.slice(0, colon);
  const hex = digest.slice(colon + 1);
  if ((algo !== 'sha256' && algo !== 'git-sha1') || !/^[0-9a-f]+$/.test(hex)) throw new BlobError('malformed digest');
  return { algo, hex };
}

export class BlobStore {
  private readonly usedBytes = new Map<string, number>();

  constructor(
    private readonly root: string,
    private readonly maxBytesPerTenant: number,
  ) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  }

  private pathOf(tenant: string, digest: string): string {
    const { algo, hex } = split(digest);
    return join(this.root, tenant, algo, hex.slice(0, 2), hex);
  }

  has(tenant: string, digest: string): boolean {
    try {
      return statSync(this.pathOf(tenant, digest)).isFile();
    } catch {
      return false;
    }
  }

  /** The digests this tenant lacks (each once, in the order asked) and the bytes of those it holds. */
  check(tenant: string, digests: readonly string[]): { missing: string[]; presentBytes: number } {
    const seen = new Set<string>();
    const missing: string[] = [];
    let presentBytes = 0;
    for (const d of digests) {
      if (seen.has(d)) continue;
      seen.add(d);
      try {
        const st = statSync(this.pathOf(tenant, d));
        if (st.isFile()) {
          presentBytes += st.size;
          continue;
        }
      } catch {
        // not stored
      }
      missing.push(d);
    }
    return { missing, presentBytes };
  }

  missing(tenant: string, digests: readonly string[]): string[] {
    return this.check(tenant, digests).missing;
  }

  private used(tenant: string): number {
    let total = this.usedBytes.get(tenant);
    if (total !== undefined) return total;
    total = 0;
    const walk = (dir: string): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) total! += statSync(p).size;
      }
    };
    walk(join(this.root, tenant));
    this.usedBytes.set(tenant, total);
    return total;
  }

  /** Stores bytes under their digest after checking them. Returns false when the blob was already there. */
  put(tenant: string, digest: string, bytes: Uint8Array): boolean {
    const { algo } = split(digest);
    if (digestBytes(algo, bytes) !== digest) throw new BlobError('the uploaded bytes do not match their digest');
    if (this.has(tenant, digest)) return false;
    const used = this.used(tenant);
    if (used + bytes.byteLength > this.maxBytesPerTenant)
      throw new BlobError(`the tenant's blob store is full (${this.maxBytesPerTenant} bytes)`);
    const path = this.pathOf(tenant, digest);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${path}.tmp-${randomBytes(8).toString('hex')}`;
    writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
    this.usedBytes.set(tenant, used + bytes.byteLength);
    return true;
  }

  /** Copies a blob to `dest` (a new file; never follows or replaces an existing one). */
  copyTo(tenant: string, digest: string, dest: string): void {
    copyFileSync(this.pathOf(tenant, digest), dest, fsConstants.COPYFILE_EXCL);
  }
}
