// RegistryClient: a small OCI distribution-spec client. Resolves tags to digests, fetches
// manifests and blobs (digest-verified: a mismatch is a hard error), pushes blobs (via blobs.ts)
// and manifests. Each call asks for the narrowest scope (pull, or pull+push) and answers 401
// challenges through the Authenticator; credentials are attached only to the registry's own
// origin. Invariants: every read has a byte cap and a deadline; nothing secret reaches an error.
import { Authenticator } from './auth.js';
import type { CredentialSource } from './docker-config.js';
import { OciError } from './errors.js';
import { parseDigest, sha256Digest, verifyDigest } from './digest.js';
import { HttpTransport, type HttpResponse, type HttpTransportOptions } from './http-transport.js';
import { MANIFEST_MEDIA_TYPES, isManifestMediaType } from './media-types.js';
import { parseManifest, type Descriptor, type Manifest } from './manifests.js';
import { apiHost, formatReference, type Reference } from './reference.js';
import { pushBlobData, type PushBlobOptions } from './blobs.js';
import { expectStatus, registryErrorSummary } from './registry-status.js';

export interface ClientLimits {
  /** Cap on a manifest or index body (hazard 25). */
  manifestMaxBytes: number;
  /** Cap on any blob we download. */
  blobMaxBytes: number;
  /** Deadline for one request (headers and body). */
  requestTimeoutMs: number;
  /** Deadline for one blob transfer. */
  blobTimeoutMs: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  manifestMaxBytes: 4 * 1024 * 1024,
  blobMaxBytes: 100 * 1024 * 1024,
  requestTimeoutMs: 30_000,
  blobTimeoutMs: 120_000,
};

export interface RegistryClientOptions extends HttpTransportOptions {
  credentials?: CredentialSource;
  /** Registries ("host:port") spoken to over plain http (--insecure-registry). */
  insecureRegistries?: Iterable<string>;
  limits?: Partial<ClientLimits>;
  /** Clock for token expiry; ms since epoch. */
  now?: () => number;
}

/** A repository inside a registry. */
export interface RepositoryRef {
  registry: string;
  repository: string;
}

export interface ResolvedManifest {
  digest: string;
  mediaType: string;
  size: number;
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  bytes: Uint8Array;
  manifest: Manifest;
}

export interface RegistryCall {
  repo: RepositoryRef;
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH';
  /** Path under the registry base ("/v2/..."), or a full URL (upload locations). */
  target: string | URL;
  push?: boolean;
  /** Extra repositories to request pull access on (cross-repository mount). */
  alsoPull?: string[];
  headers?: Record<string, string>;
  body?: Uint8Array;
  maxBytes: number;
  timeoutMs?: number;
  retryable: boolean;
  what: string;
}

export class RegistryClient {
  readonly limits: ClientLimits;
  private readonly transport: HttpTransport;
  private readonly auth: Authenticator;
  private readonly insecure: Set<string>;

  constructor(opts: RegistryClientOptions = {}) {
    this.limits = { ...DEFAULT_CLIENT_LIMITS, ...opts.limits };
    this.transport = new HttpTransport(opts);
    this.insecure = new Set(opts.insecureRegistries ?? []);
    this.auth = new Authenticator({
      transport: this.transport,
      now: opts.now ?? (() => Date.now()),
      timeoutMs: this.limits.requestTimeoutMs,
      isInsecure: (r) => this.insecure.has(r),
      ...(opts.credentials === undefined ? {} : { credentials: opts.credentials }),
    });
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  baseUrl(registry: string): URL {
    return new URL(`${this.insecure.has(registry) ? 'http' : 'https'}://${apiHost(registry)}`);
  }

  /** Tag (or digest) → manifest digest, with HEAD; falls back to GET when the registry gives no digest header. */
  async resolve(ref: Reference): Promise<ResolvedManifest> {
    const what = `resolving ${formatReference(ref)}`;
    const res = await this.call({
      repo: ref,
      method: 'HEAD',
      target: manifestPath(ref),
      headers: { accept: MANIFEST_MEDIA_TYPES.join(', ') },
      maxBytes: 0,
      retryable: true,
      what,
    });
    if (res.status === 404) throw notFound(ref, what);
    expectStatus(res, [200], what);
    const digest = res.headers['docker-content-digest'];
    const mediaType = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
    const size = Number(res.headers['content-length'] ?? NaN);
    if (digest !== undefined && isManifestMediaType(mediaType) && Number.isSafeInteger(size)) {
      parseDigest(digest, `${what}: Docker-Content-Digest`);
      if (ref.digest !== undefined && digest !== ref.digest) {
        throw new OciError(
          'OCI_DIGEST_MISMATCH',
          `${what}: registry says the manifest is ${digest}, the reference pins ${ref.digest}`,
        );
      }
      return { digest, mediaType, size };
    }
    const fetched = await this.getManifest(ref);
    return { digest: fetched.digest, mediaType: fetched.mediaType, size: fetched.bytes.byteLength };
  }

  /** Fetches and validates a manifest or index; the digest is computed from the bytes and verified. */
  async getManifest(ref: Reference): Promise<FetchedManifest> {
    const what = `manifest ${formatReference(ref)}`;
    const res = await this.call({
      repo: ref,
      method: 'GET',
      target: manifestPath(ref),
      headers: { accept: MANIFEST_MEDIA_TYPES.join(', ') },
      maxBytes: this.limits.manifestMaxBytes,
      retryable: true,
      what,
    });
    if (res.status === 404) throw notFound(ref, what);
    expectStatus(res, [200], what);
    let digest: string;
    if (ref.digest !== undefined) {
      verifyDigest(res.body, ref.digest, what);
      digest = ref.digest;
    } else {
      digest = sha256Digest(res.body);
      const claimed = res.headers['docker-content-digest'];
      if (claimed !== undefined && claimed.startsWith('sha256:') && claimed !== digest) {
        throw new OciError(
          'OCI_DIGEST_MISMATCH',
          `${what}: registry says ${claimed} but the content hashes to ${digest}`,
        );
      }
    }
    const manifest = parseManifest(res.body, res.headers['content-type'], what);
    return { digest, mediaType: manifest.mediaType, bytes: res.body, manifest };
  }

  /** Downloads a blob, refusing it if it is larger than the cap or does not match the descriptor. */
  async getBlob(
    repo: RepositoryRef,
    desc: Pick<Descriptor, 'digest' | 'size'>,
    maxBytes = this.limits.blobMaxBytes,
  ): Promise<Uint8Array> {
    const what = `blob ${desc.digest} in ${repo.registry}/${repo.repository}`;
    parseDigest(desc.digest, what);
    if (desc.size > maxBytes)
      throw new OciError('OCI_TOO_LARGE', `${what}: declared size ${desc.size} is over the ${maxBytes}-byte cap`);
    const res = await this.call({
      repo,
      method: 'GET',
      target: `/v2/${repo.repository}/blobs/${desc.digest}`,
      maxBytes: desc.size,
      timeoutMs: this.limits.blobTimeoutMs,
      retryable: true,
      what,
    });
    if (res.status === 404) throw new OciError('OCI_NOT_FOUND', `${what}: not found`, { status: 404 });
    expectStatus(res, [200], what);
    if (res.body.byteLength !== desc.size) {
      throw new OciError(
        'OCI_DIGEST_MISMATCH',
        `${what}: got ${res.body.byteLength} bytes, the descriptor says ${desc.size}`,
      );
    }
    verifyDigest(res.body, desc.digest, what);
    return res.body;
  }

  async hasBlob(repo: RepositoryRef, digest: string): Promise<boolean> {
    const what = `checking blob ${digest} in ${repo.registry}/${repo.repository}`;
    const res = await this.call({
      repo,
      method: 'HEAD',
      target: `/v2/${repo.repository}/blobs/${digest}`,
      push: true,
      maxBytes: 0,
      retryable: true,
      what,
    });
    if (res.status === 404) return false;
    expectStatus(res, [200], what);
    return true;
  }

  /** Uploads a blob unless the registry has it; see PushBlobOptions for chunking and mounting. */
  async pushBlob(
    repo: RepositoryRef,
    data: Uint8Array,
    opts: PushBlobOptions = {},
  ): Promise<{ digest: string; size: number; mounted: boolean; skipped: boolean }> {
    return pushBlobData(this, repo, data, opts);
  }

  /** Pushes a manifest under a tag (or its digest); returns the manifest digest. */
  async putManifest(ref: Reference, mediaType: string, bytes: Uint8Array): Promise<string> {
    if (!isManifestMediaType(mediaType))
      throw new OciError(
        'OCI_MEDIA_TYPE',
        `pushing ${formatReference(ref)}: unsupported manifest media type ${mediaType}`,
      );
    const digest = sha256Digest(bytes);
    if (ref.digest !== undefined && ref.digest !== digest) {
      throw new OciError('OCI_DIGEST_MISMATCH', `pushing ${formatReference(ref)}: manifest hashes to ${digest}`);
    }
    const what = `pushing manifest ${formatReference(ref)}`;
    const res = await this.call({
      repo: ref,
      method: 'PUT',
      target: `/v2/${ref.repository}/manifests/${ref.tag ?? digest}`,
      push: true,
      headers: { 'content-type': mediaType },
      body: bytes,
      maxBytes: 64 * 1024,
      retryable: true,
      what,
    });
    expectStatus(res, [201, 200], what);
    const claimed = res.headers['docker-content-digest'];
    if (claimed !== undefined && claimed.startsWith('sha256:') && claimed !== digest) {
      throw new OciError('OCI_DIGEST_MISMATCH', `${what}: registry stored ${claimed}, we sent ${digest}`);
    }
    return digest;
  }

  /**
   * One registry request with authentication: tries what we already know for this scope, answers
   * a 401 challenge once, and turns 401/403 into OCI_UNAUTHORIZED. Other statuses are returned.
   */
  async call(c: RegistryCall): Promise<HttpResponse> {
    const base = this.baseUrl(c.repo.registry);
    const url = typeof c.target === 'string' ? new URL(c.target, base) : c.target;
    let scope = `repository:${c.repo.repository}:${c.push === true ? 'pull,push' : 'pull'}`;
    for (const other of c.alsoPull ?? []) scope += ` repository:${other}:pull`;
    const sameOrigin = url.origin === base.origin;
    const send = (authorization: string | undefined): Promise<HttpResponse> =>
      this.transport.send({
        method: c.method,
        url,
        ...(c.headers === undefined ? {} : { headers: c.headers }),
        ...(c.body === undefined ? {} : { body: c.body }),
        ...(authorization === undefined || !sameOrigin ? {} : { authorization }),
        maxBytes: c.maxBytes,
        timeoutMs: c.timeoutMs ?? this.limits.requestTimeoutMs,
        retryable: c.retryable,
        followRedirects: c.method === 'GET' || c.method === 'HEAD',
        what: c.what,
      });
    let res = await send(this.auth.cachedAuthorization(c.repo.registry, scope));
    // Only the registry itself may challenge us: a 401 from a host we were redirected to (a CDN,
    // or worse) must not make us send the registry's credentials to a realm it names.
    if (res.status === 401 && sameOrigin && res.url.origin === base.origin) {
      const header = await this.auth.answer(c.repo.registry, scope, res.headers['www-authenticate'], c.what);
      res = await send(header);
      if (res.status === 401) this.auth.forget(c.repo.registry, scope);
    }
    if (res.status === 401 || res.status === 403) {
      throw new OciError(
        'OCI_UNAUTHORIZED',
        `${c.what}: ${c.repo.registry} refused access (HTTP ${res.status}${registryErrorSummary(res)})`,
        { status: res.status },
      );
    }
    return res;
  }
}

function manifestPath(ref: Reference): string {
  return `/v2/${ref.repository}/manifests/${ref.digest ?? ref.tag ?? 'latest'}`;
}

function notFound(ref: Reference, what: string): OciError {
  const missing = ref.digest !== undefined ? `digest ${ref.digest}` : `tag ${JSON.stringify(ref.tag)}`;
  return new OciError('OCI_NOT_FOUND', `${what}: ${missing} not found in ${ref.registry}/${ref.repository}`, {
    status: 404,
  });
}
