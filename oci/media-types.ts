// Media types oci/ knows. Anything else in a manifest's Content-Type or in a bundle layer is
// refused (hazard 25), so this list is the allow-list.

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const DOCKER_MANIFEST_V2 = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_MANIFEST_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';

/** Manifest media types we accept, in the order we list them in Accept. */
export const MANIFEST_MEDIA_TYPES = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST_V2, DOCKER_MANIFEST_LIST] as const;
export type ManifestMediaType = (typeof MANIFEST_MEDIA_TYPES)[number];

export function isManifestMediaType(s: string): s is ManifestMediaType {
  return (MANIFEST_MEDIA_TYPES as readonly string[]).includes(s);
}

// kubecfg's bundle format (kubecfg utils/oci.go and pkg/kubecfg/pack.go).
export const KUBECFG_BUNDLE_BODY = 'application/vnd.kubecfg.bundle.tar+gzip';
export const KUBECFG_BUNDLE_DOCS = 'application/vnd.kubecfg.bundle.docs.tar+gzip';
export const KUBECFG_BUNDLE_CONFIG = 'application/vnd.oci.empty.v1+json';
export const KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE = 'application/vnd.kubecfg.bundle.config.v1+json';
