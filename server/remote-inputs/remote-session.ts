/**
 * The render side of remote inputs: one RemoteSession per command run, made
 * current for the run's duration (renders are synchronous and one per thread,
 * so "current" is exactly "this request"; it is cleared in a finally).
 *
 * A lookup either answers from the snapshot the fetcher gave this round, or
 * records a need and throws RemoteInputPending: the round's outcome is then
 * thrown away and the render re-runs once the need is fetched. Every answer
 * used is recorded as a RemoteDep, so the result cache can re-check it.
 */
import {
  keyOf,
  type FetchPolicy,
  type HttpEntry,
  type ImageEntry,
  type KubocdPackageEntry,
  type OciEntry,
  type RemoteDep,
  type RemoteNeed,
  type RemoteSnapshot,
} from './remote-types.js';

/** Thrown (wrapped by the importer as an ImportError) when a remote input is not fetched yet. */
export class RemoteInputPending extends Error {
  constructor(readonly need: RemoteNeed) {
    super(`${need.kind === 'http' ? need.url : need.kind === 'image' ? need.image : need.reference} is being fetched`);
  }
}

export class RemoteSession {
  private readonly needs = new Map<string, RemoteNeed>();
  private readonly deps = new Map<string, RemoteDep>();
  /** The real --root directory, when the request confines its reads. */
  root: string | undefined;
  /** -U/--jurl search URLs, each ending in '/' (as kubecfg appends it). */
  jurl: string[] = [];
  /** Features enabled for this request (a bundle declaring others is refused). */
  enabledFeatures: string[] = [];
  /** Warnings to print before the command's own output (resolveImage with --resolve-images-error=warn). */
  readonly warnings: string[] = [];

  constructor(
    private readonly snapshot: RemoteSnapshot,
    /** Filled in by run.ts once the rc file is applied; the fetcher reads it with the needs. */
    public policy: FetchPolicy = { allowHosts: [], insecureRegistries: [], ociTagTtlMs: 5 * 60 * 1000 },
  ) {}

  private lookup(need: RemoteNeed): HttpEntry | OciEntry | ImageEntry | KubocdPackageEntry {
    const key = keyOf(need);
    const entry = this.snapshot[key];
    if (entry === undefined || entry.kind !== need.kind) {
      this.needs.set(key, need);
      throw new RemoteInputPending(need);
    }
    return entry;
  }

  http(url: string): HttpEntry {
    const entry = this.lookup({ kind: 'http', url }) as HttpEntry;
    this.deps.set(`http ${url}`, {
      kind: 'http',
      url,
      digest: entry.status === 'ok' ? entry.digest : null,
    });
    return entry;
  }

  oci(reference: string, pinnedByDigest: boolean): OciEntry {
    const entry = this.lookup({ kind: 'oci', reference }) as OciEntry;
    if (!pinnedByDigest && entry.status === 'ok')
      this.deps.set(`oci ${reference}`, { kind: 'oci-tag', reference, pinned: entry.pinned });
    return entry;
  }

  image(image: string): ImageEntry {
    const entry = this.lookup({ kind: 'image', image }) as ImageEntry;
    this.deps.set(`image ${image}`, {
      kind: 'image',
      image,
      resolved: entry.status === 'ok' ? entry.resolved : null,
    });
    return entry;
  }

  /** A KuboCD package image's content layer; a tag's answer is re-checked like a bundle tag's. */
  kubocdPackage(reference: string, pinnedByDigest: boolean): KubocdPackageEntry {
    const entry = this.lookup({ kind: 'kubocd-package', reference }) as KubocdPackageEntry;
    if (!pinnedByDigest && entry.status === 'ok')
      this.deps.set(`kubocd-package ${reference}`, { kind: 'oci-tag', reference, pinned: entry.pinned });
    return entry;
  }

  /** Looks a pinned bundle up among the bundles already fetched (relative imports inside a bundle). */
  bundleByPinned(pinned: string): OciEntry | undefined {
    for (const entry of Object.values(this.snapshot))
      if (entry.kind === 'oci' && entry.status === 'ok' && entry.pinned === pinned) return entry;
    return undefined;
  }

  pendingNeeds(): RemoteNeed[] {
    return [...this.needs.values()];
  }

  usedDeps(): RemoteDep[] {
    return [...this.deps.values()];
  }
}

let current: RemoteSession | undefined;

/** Runs `fn` with `session` current; nested runs are not expected (one render per thread). */
export function withRemoteSession<T>(session: RemoteSession, fn: () => T): T {
  const previous = current;
  current = session;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** The session of the command running on this thread, if the caller set one (rc evaluation runs without). */
export function currentRemoteSession(): RemoteSession | undefined {
  return current;
}
