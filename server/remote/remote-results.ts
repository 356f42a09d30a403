/**
 * The remote service's result cache, per tenant (hazard 32's rule, applied to
 * manifests). A result is found by the digest of everything but file contents
 * (command, args, flags, root-relative cwd, terminal facts, whether the
 * tenant binds code, engine build id), then by its dependencies: the files
 * the render actually read (by their manifest digest), the paths it probed,
 * found missing or listed. A later request hits when its manifest gives the
 * same answer to every one of those questions, so a runner on the same commit
 * (or a commit that changed only unrelated files) renders nothing. A result
 * that used remote inputs (URLs, OCI tags, image tags) also keeps those facts;
 * the service re-checks them before serving it (render-service.ts) and drops
 * the variant when one changed, so a changed remote body re-renders.
 *
 * Invariants: the tenant is part of every key, so tenants never share an
 * entry; a render that touched an unreadable path, or a path outside its work
 * directory that existed, is not cached; entries are bounded by bytes (LRU).
 */
import { relative, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import { UNREADABLE_DIGEST, type FileDepJson } from '../../cache/index.js';
import type { FetchPolicy, RemoteDep } from '../remote-inputs/remote-types.js';
import { ManifestView } from './manifest-view.js';

export type RelDep =
  | { kind: 'file'; path: string; digest: string }
  | { kind: 'exists'; path: string }
  | { kind: 'absent'; path: string }
  | { kind: 'dir'; path: string; listing: string };

export interface RemoteOutput {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The remote facts a result used, with the policy they were fetched under. */
export interface RemoteFacts {
  deps: RemoteDep[];
  policy: FetchPolicy;
}

export interface Variant {
  deps: RelDep[];
  output: RemoteOutput;
  remote?: RemoteFacts;
}

export const MAX_VARIANTS = 8;

/**
 * Turns the child's absolute-path deps into manifest questions, or undefined
 * when the result must not be cached.
 */
export function relativeDeps(deps: readonly FileDepJson[], workdir: string, view: ManifestView): RelDep[] | undefined {
  const out: RelDep[] = [];
  for (const dep of deps) {
    const rel = dep.path === workdir ? '.' : dep.path.startsWith(workdir + sep) ? relative(workdir, dep.path) : null;
    if (rel === null) {
      // Outside the work directory everything is missing (the jail): no question to ask again.
      if (!dep.exists) continue;
      return undefined;
    }
    const path = rel.split(sep).join('/');
    if (dep.digest === UNREADABLE_DIGEST) return undefined;
    if (!dep.exists) out.push({ kind: 'absent', path });
    else if (dep.kind === 'dir') {
      const listing = view.listingDigest(path);
      if (listing === undefined) return undefined;
      out.push({ kind: 'dir', path, listing });
    } else if (dep.digest !== undefined) {
      const digest = view.fileDigest(path);
      if (digest === undefined) return undefined;
      out.push({ kind: 'file', path, digest });
    } else out.push({ kind: 'exists', path });
  }
  return out;
}

/** True when this manifest answers every dependency question of a cached render alike. */
export function matches(deps: readonly RelDep[], view: ManifestView): boolean {
  for (const dep of deps) {
    switch (dep.kind) {
      case 'file':
        if (view.fileDigest(dep.path) !== dep.digest) return false;
        break;
      case 'exists':
        if (!view.exists(dep.path)) return false;
        break;
      case 'absent':
        if (view.exists(dep.path)) return false;
        break;
      case 'dir':
        if (view.listingDigest(dep.path) !== dep.listing) return false;
        break;
    }
  }
  return true;
}

function sizeOf(variants: Variant[]): number {
  let n = 64;
  for (const v of variants)
    n +=
      v.output.stdout.length * 2 +
      v.output.stderr.length * 2 +
      128 * (v.deps.length + (v.remote?.deps.length ?? 0) + 1);
  return n;
}

export class RemoteResults {
  private readonly lru: LRUCache<string, Variant[]>;
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.lru = new LRUCache<string, Variant[]>({ maxSize: maxBytes, sizeCalculation: (v) => Math.max(1, sizeOf(v)) });
  }

  /** The variant whose file questions this manifest answers alike; its remote facts are the caller's to check. */
  get(tenant: string, key: string, view: ManifestView): Variant | undefined {
    const variants = this.lru.get(`${tenant}\0${key}`);
    const found = variants?.find((v) => matches(v.deps, view));
    if (found) this.hits++;
    else this.misses++;
    return found;
  }

  /** Forgets one variant (its remote facts no longer hold). */
  drop(tenant: string, key: string, variant: Variant): void {
    const k = `${tenant}\0${key}`;
    const rest = (this.lru.get(k) ?? []).filter((v) => v !== variant);
    if (rest.length) this.lru.set(k, rest);
    else this.lru.delete(k);
  }

  set(tenant: string, key: string, deps: RelDep[], output: RemoteOutput, remote?: RemoteFacts): void {
    const k = `${tenant}\0${key}`;
    const variant: Variant = remote?.deps.length ? { deps, output, remote } : { deps, output };
    const variants = [variant, ...(this.lru.get(k) ?? [])].slice(0, MAX_VARIANTS);
    if (sizeOf(variants) > this.lru.maxSize) return;
    this.lru.set(k, variants);
  }

  stats(): { entries: number; bytes: number; hits: number; misses: number } {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize, hits: this.hits, misses: this.misses };
  }
}
