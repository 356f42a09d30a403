/**
 * What travels between a render (worker thread or one-shot process) and the
 * async side that fetches remote inputs. A render never does network I/O: it
 * looks remote things up in a RemoteSnapshot and, for anything missing, adds
 * a RemoteNeed and fails the round; the fetcher (remote-fetcher.ts) fetches
 * the needs and runs the render again with a larger snapshot.
 *
 * Invariants: every type here survives structured clone (plain objects,
 * strings, numbers, Uint8Array); a snapshot entry is a fact about one key for
 * the whole request (a render sees the same answer every time it asks), and
 * the fetcher never removes entries between rounds.
 */

/** Keys: `http ${url}` (also data: is never fetched), `oci ${reference as written}`, `image ${name}`. */
export type RemoteKey = string;

export type RemoteNeed =
  | { kind: 'http'; url: string }
  | { kind: 'oci'; reference: string }
  | { kind: 'image'; image: string }
  /** A KuboCD package image (`kubecfg kubocd render --package oci://...`), key `kubocd-package ${reference}`. */
  | { kind: 'kubocd-package'; reference: string };

export type HttpEntry =
  | { kind: 'http'; status: 'ok'; url: string; bytes: Uint8Array; digest: string }
  | { kind: 'http'; status: 'not-found'; url: string }
  | { kind: 'http'; status: 'error'; url: string; message: string };

export type OciEntry =
  | {
      kind: 'oci';
      status: 'ok';
      /** registry/repository@sha256:... */
      pinned: string;
      entrypoint: string;
      features: string[];
      files: Record<string, Uint8Array>;
    }
  | { kind: 'oci'; status: 'error'; message: string };

export type ImageEntry =
  { kind: 'image'; status: 'ok'; resolved: string } | { kind: 'image'; status: 'error'; message: string };

/** The package's content layer (kubocd-fetch.ts), base64 so JSON snapshot codecs carry it as is. */
export type KubocdPackageEntry =
  | { kind: 'kubocd-package'; status: 'ok'; pinned: string; contentBase64: string }
  | { kind: 'kubocd-package'; status: 'error'; message: string };

export type RemoteEntry = HttpEntry | OciEntry | ImageEntry | KubocdPackageEntry;

export type RemoteSnapshot = Record<RemoteKey, RemoteEntry>;

/** What the fetcher must know of the request's flags (and rc settings): computed in the render. */
export interface FetchPolicy {
  /** --allow-import-host: host names or IP addresses http(s) imports may reach despite the SSRF rule. */
  allowHosts: string[];
  /** --insecure-registry: registries ("host:port") spoken to over plain HTTP. */
  insecureRegistries: string[];
  /** --oci-tag-ttl in ms: how long a tag -> digest answer is trusted. */
  ociTagTtlMs: number;
  /** The docker config file the client would use for registry credentials, if any. */
  dockerConfig?: string;
  /**
   * The remote render service's rule (server/remote/): every connection, http(s) imports and
   * registries alike, each redirect hop included, must go to a host on allowHosts (by name, or by
   * the address it resolves to). Without it, allowHosts only lifts the private-address rule.
   */
  onlyAllowedHosts?: boolean;
  /**
   * The client's HTTP(S)_PROXY / NO_PROXY (net/proxy.ts) for http(s) imports and registries;
   * absent when none is set, and always under onlyAllowedHosts (the service uses no client proxy).
   */
  proxy?: { httpProxy: string; httpsProxy: string; noProxy: string };
}

/** What a render reports besides its output: what it still needs, and the remote facts it used. */
export interface RemoteReport {
  needs: RemoteNeed[];
  deps: RemoteDep[];
  policy: FetchPolicy;
}

/**
 * A remote fact a result depended on, re-checked before a cached result is
 * served: the URL's current body digest, the tag's current digest, the image's
 * current resolution. Digest-pinned OCI references and data: URLs never change,
 * so they are not recorded.
 */
export type RemoteDep =
  | { kind: 'http'; url: string; digest: string | null }
  | { kind: 'oci-tag'; reference: string; pinned: string }
  | { kind: 'image'; image: string; resolved: string | null };

export function keyOf(need: RemoteNeed): RemoteKey {
  switch (need.kind) {
    case 'http':
      return `http ${need.url}`;
    case 'oci':
      return `oci ${need.reference}`;
    case 'image':
      return `image ${need.image}`;
    case 'kubocd-package':
      return `kubocd-package ${need.reference}`;
  }
}
