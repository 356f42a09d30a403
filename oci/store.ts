// BundleStore: fetched bundles kept on disk by digest under <cacheDir>/oci/blobs/sha256/<hex>
// (manifest, config and body blobs, content-addressed), and tag → digest answers kept in memory
// for a TTL (default 5 min, clock injected). A digest-pinned bundle is fetched at most once ever;
// a tag at most once per TTL. Invariants: blobs are written only after their digest verified and
// the whole bundle opened cleanly, via temp file + rename (no torn files); the manifest is written
// last, so a bundle is visible only when complete; nothing is cached from a failed fetch; blobs
// read back from disk are re-verified (a corrupt file is dropped and refetched).
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { OciError, describeCause } from './errors.js';
import { parseDigest, verifyDigest } from './digest.js';
import { formatReference, pinnedReference, type Reference } from './reference.js';
import { parseManifest } from './manifests.js';
import { OCI_MANIFEST } from './media-types.js';
import { DEFAULT_BUNDLE_LIMITS, bundleBodyLayer, openBundle, type Bundle, type BundleLimits } from './bundle.js';
import type { RegistryClient } from './client.js';

export interface BundleStoreOptions {
  /** The daemon passes $XDG_CACHE_HOME/kubecfg/. */
  cacheDir: string;
  client: RegistryClient;
  /** How long a tag → digest answer is trusted (--oci-tag-ttl); default 5 minutes. */
  tagTtlMs?: number;
  /** ms since epoch; injected so tests control expiry. */
  now?: () => number;
  limits?: Partial<BundleLimits>;
  /** Opened bundles kept in memory (by digest): at most this many... */
  maxOpenBundles?: number;
  /** ...and at most this many bytes of bundle files in total (default 64 MiB). */
  maxOpenBytes?: number;
}

export const DEFAULT_TAG_TTL_MS = 5 * 60 * 1000;

export class BundleStore {
  private readonly blobDir: string;
  private readonly client: RegistryClient;
  private readonly ttl: number;
  private readonly now: () => number;
  private readonly limits: BundleLimits;
  private readonly maxOpen: number;
  private readonly maxOpenBytes: number;
  private openBytes = 0;
  private readonly tags = new Map<string, { digest: string; expiresAt: number }>();
  private readonly open = new Map<string, { bundle: Bundle; bytes: number }>();
  private readonly inflight = new Map<string, Promise<Bundle>>();
  private readonly resolving = new Map<string, Promise<string>>();

  constructor(opts: BundleStoreOptions) {
    this.blobDir = join(opts.cacheDir, 'oci', 'blobs', 'sha256');
    this.client = opts.client;
    this.ttl = opts.tagTtlMs ?? DEFAULT_TAG_TTL_MS;
    this.now = opts.now ?? (() => Date.now());
    this.limits = { ...DEFAULT_BUNDLE_LIMITS, ...opts.limits };
    this.maxOpen = opts.maxOpenBundles ?? 32;
    this.maxOpenBytes = opts.maxOpenBytes ?? 64 * 1024 * 1024;
  }

  /** The manifest digest a reference names: the pinned digest, a cached tag answer, or a registry lookup. */
  async resolveDigest(ref: Reference): Promise<string> {
    if (ref.digest !== undefined) return ref.digest;
    const key = formatReference(ref);
    const cached = this.tags.get(key);
    if (cached !== undefined && cached.expiresAt > this.now()) return cached.digest;
    // Concurrent renders importing the same tag share one registry lookup.
    let p = this.resolving.get(key);
    if (p === undefined) {
      p = this.client
        .resolve(ref)
        .then(({ digest }) => {
          this.tags.set(key, { digest, expiresAt: this.now() + this.ttl });
          return digest;
        })
        .finally(() => this.resolving.delete(key));
      this.resolving.set(key, p);
    }
    return p;
  }

  /** The bundle a reference names, from memory, disk or the registry (in that order). */
  async get(ref: Reference): Promise<Bundle> {
    const digest = await this.resolveDigest(ref);
    const open = this.open.get(digest);
    if (open !== undefined) return open.bundle;
    let p = this.inflight.get(digest);
    if (p === undefined) {
      p = this.load(pinnedReference(ref, digest), digest).finally(() => this.inflight.delete(digest));
      this.inflight.set(digest, p);
    }
    const bundle = await p;
    this.remember(digest, bundle);
    return bundle;
  }

  /** Forgets cached tag answers (e.g. after `pack` pushed a new version). */
  forgetTags(): void {
    this.tags.clear();
  }

  private remember(digest: string, bundle: Bundle): void {
    const old = this.open.get(digest);
    if (old !== undefined) {
      this.open.delete(digest);
      this.openBytes -= old.bytes;
    }
    let bytes = 0;
    for (const data of bundle.files.values()) bytes += data.byteLength;
    this.open.set(digest, { bundle, bytes });
    this.openBytes += bytes;
    // Oldest first; a bundle larger than the whole budget is simply not kept in memory.
    while (this.open.size > this.maxOpen || (this.openBytes > this.maxOpenBytes && this.open.size > 0)) {
      const [oldestKey, oldest] = this.open.entries().next().value!;
      this.open.delete(oldestKey);
      this.openBytes -= oldest.bytes;
    }
  }

  private async load(ref: Reference, digest: string): Promise<Bundle> {
    const what = `bundle ${formatReference(ref)}`;
    const manifestBytes = await this.readBlob(digest);
    if (manifestBytes !== undefined) {
      try {
        const manifest = parseManifest(manifestBytes, OCI_MANIFEST, what);
        if (manifest.kind === 'manifest') {
          const body = bundleBodyLayer(manifest, what);
          const config = await this.readBlob(manifest.config.digest);
          const bodyBytes = await this.readBlob(body.digest);
          if (config !== undefined && bodyBytes !== undefined)
            return await openBundle(ref, digest, manifest, config, bodyBytes, this.limits);
        }
      } catch (e) {
        // A stored bundle that no longer opens is dropped and fetched again.
        if (!(e instanceof OciError)) throw e;
        await this.dropBlob(digest);
      }
    }
    const fetched = await this.client.getManifest(ref);
    if (fetched.manifest.kind !== 'manifest')
      throw new OciError('OCI_BUNDLE', `${what}: is an image index, not a kubecfg bundle`);
    const manifest = fetched.manifest;
    const body = bundleBodyLayer(manifest, what);
    if (body.size > this.limits.maxArchiveBytes)
      throw new OciError(
        'OCI_TOO_LARGE',
        `${what}: body layer is ${body.size} bytes, over the ${this.limits.maxArchiveBytes}-byte cap`,
      );
    const config = await this.client.getBlob(ref, manifest.config, this.limits.maxConfigBytes);
    const bodyBytes = await this.client.getBlob(ref, body, this.limits.maxArchiveBytes);
    const bundle = await openBundle(ref, digest, manifest, config, bodyBytes, this.limits);
    await this.writeBlob(body.digest, bodyBytes);
    await this.writeBlob(manifest.config.digest, config);
    await this.writeBlob(digest, fetched.bytes);
    return bundle;
  }

  private blobPath(digest: string): string | undefined {
    const d = parseDigest(digest);
    return d.algorithm === 'sha256' ? join(this.blobDir, d.hex) : undefined;
  }

  private async readBlob(digest: string): Promise<Uint8Array | undefined> {
    const path = this.blobPath(digest);
    if (path === undefined) return undefined;
    let data: Uint8Array;
    try {
      data = new Uint8Array(await readFile(path));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new OciError(
        'OCI_STORE',
        `bundle store: cannot read blob ${digest} (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    try {
      verifyDigest(data, digest, `stored blob ${digest}`);
    } catch {
      await this.dropBlob(digest);
      return undefined;
    }
    return data;
  }

  private async writeBlob(digest: string, data: Uint8Array): Promise<void> {
    const path = this.blobPath(digest);
    if (path === undefined) return;
    const tmp = `${path}.tmp-${randomBytes(8).toString('hex')}`;
    try {
      await mkdir(this.blobDir, { recursive: true, mode: 0o700 });
      await writeFile(tmp, data, { mode: 0o600, flag: 'wx' });
      await rename(tmp, path);
    } catch (e) {
      await rm(tmp, { force: true });
      throw new OciError('OCI_STORE', `bundle store: cannot write blob ${digest} (${describeCause(e)})`);
    }
  }

  private async dropBlob(digest: string): Promise<void> {
    const path = this.blobPath(digest);
    if (path !== undefined) await rm(path, { force: true });
  }
}
