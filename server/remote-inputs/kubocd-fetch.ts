/**
 * KuboCD packages published as OCI images (`kubocd package`): the image
 * layout and the network half.
 *
 * The image KuboCD pushes: an OCI image manifest whose config blob is the
 * groomed Package as JSON (media type KUBOCD_PACKAGE_CONFIG) and whose one
 * layer (KUBOCD_PACKAGE_CONTENT, a tar.gz) holds `original.yaml` (the
 * Package manifest as written), `groomed.yaml`, `index.yaml` (a Helm
 * repository index), `status.yaml` (`chartByModule: {MODULE: {name,
 * version}}`) and one `NAME-VERSION.tgz` chart archive per distinct chart.
 * `kubocd render` reads original.yaml and status.yaml and unpacks each
 * module's chart from NAME-VERSION.tgz; so do we (kubocd-package-archive.ts).
 *
 * `fetchKubocdPackageContent` runs in the main thread, called by the
 * remote-inputs fetcher (server/remote-inputs/remote-fetcher.ts): the
 * manifest, then the content layer, both digest-verified by the registry
 * client. This file stays light (no template or chart code) because the
 * daemon's main thread loads it.
 */
import type { RegistryClient } from '../../oci/client.js';
import { OCI_MANIFEST, DOCKER_MANIFEST_V2 } from '../../oci/media-types.js';
import { formatReference, type Reference } from '../../oci/reference.js';

/** The layer of a KuboCD package image holding the package files and charts. */
export const KUBOCD_PACKAGE_CONTENT = 'application/vnd.kubotal.kubocd.package.content.v1.tar+gzip';
/** The config blob of a KuboCD package image: the groomed Package as JSON. */
export const KUBOCD_PACKAGE_CONFIG = 'application/vnd.kubotal.kubocd.package.config.v1alpha1+json';

export class KubocdFetchError extends Error {}

/**
 * The content layer of the package image `ref` (pinned by digest by the
 * caller, so the manifest read is the one resolved). Fails when the image is
 * an index or has no KuboCD content layer, naming the media types it has.
 */
export async function fetchKubocdPackageContent(client: RegistryClient, ref: Reference): Promise<Uint8Array> {
  const where = formatReference(ref);
  const fetched = await client.getManifest(ref);
  const manifest = fetched.manifest;
  if (fetched.mediaType !== OCI_MANIFEST && fetched.mediaType !== DOCKER_MANIFEST_V2)
    throw new KubocdFetchError(`${where}: is an image index (${fetched.mediaType}), not a KuboCD package image`);
  if (!('layers' in manifest)) throw new KubocdFetchError(`${where}: is an image index, not a KuboCD package image`);
  const layers = manifest.layers.filter((l) => l.mediaType === KUBOCD_PACKAGE_CONTENT);
  if (layers.length !== 1) {
    const seen = manifest.layers.map((l) => l.mediaType).join(', ') || 'none';
    throw new KubocdFetchError(
      `${where}: not a KuboCD package image: expected one layer of type ${KUBOCD_PACKAGE_CONTENT}, found ${layers.length} (layer types: ${seen})`,
    );
  }
  return client.getBlob(ref, layers[0]!);
}
