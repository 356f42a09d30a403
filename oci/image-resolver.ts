// ImageResolver: kubecfg's resolveImage in registry mode (--resolve-images=registry). An image
// with a tag becomes `registry/repository@sha256:...` (kubecfg's form: tag dropped, docker.io and
// library/ spelled out); an image already pinned by digest is returned in that form without a
// registry call. Answers are cached per resolver (one per daemon), failures never are.
import { formatReference, parseReference } from './reference.js';
import type { RegistryClient } from './client.js';

export class ImageResolver {
  private readonly cache = new Map<string, string>();
  private readonly inflight = new Map<string, Promise<string>>();

  constructor(private readonly client: RegistryClient) {}

  /** Throws OciError (OCI_REFERENCE, OCI_NOT_FOUND, OCI_UNAUTHORIZED, ...) when it cannot resolve. */
  async resolve(image: string): Promise<string> {
    const ref = parseReference(image);
    if (ref.digest !== undefined) return `${ref.registry}/${ref.repository}@${ref.digest}`;
    const key = formatReference(ref);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let p = this.inflight.get(key);
    if (p === undefined) {
      p = this.client
        .resolve(ref)
        .then(({ digest }) => {
          const pinned = `${ref.registry}/${ref.repository}@${digest}`;
          this.cache.set(key, pinned);
          return pinned;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }
}
