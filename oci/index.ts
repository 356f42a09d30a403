// oci/: the OCI registry client and kubecfg's bundle format. This is the public surface the
// daemon uses (pack, oci:// imports, resolveImage in registry mode); see docs/oci.md.
export { OciError, isOciError, type OciErrorCode } from './errors.js';
export {
  parseReference,
  formatReference,
  pinnedReference,
  parseOciImportUrl,
  type Reference,
  type OciImportUrl,
} from './reference.js';
export {
  RegistryClient,
  DEFAULT_CLIENT_LIMITS,
  type RegistryClientOptions,
  type ClientLimits,
  type RepositoryRef,
  type ResolvedManifest,
  type FetchedManifest,
} from './client.js';
export {
  DockerConfigCredentials,
  StaticCredentials,
  loadDockerConfig,
  type CredentialSource,
  type RegistryCredential,
} from './docker-config.js';
export { sha256Digest, verifyDigest, isDigest } from './digest.js';
export type { Descriptor, ImageManifest, ImageIndex, Manifest } from './manifests.js';
export type { PushBlobOptions } from './blobs.js';
export {
  PACK_METADATA_FIELD,
  PACK_METADATA_KEY,
  DEFAULT_BUNDLE_LIMITS,
  bundlePaths,
  buildBundleArchive,
  buildBundleArtifact,
  parseAnnotationFlag,
  pushBundle,
  pullBundle,
  bundleFile,
  missingFeatures,
  type Bundle,
  type BundleConfig,
  type BundleArtifact,
  type BundleJson,
  type BundleLimits,
  type PackInput,
} from './bundle.js';
export { loadOciImport, resolveInBundle, type BundleSource, type LoadedOciImport } from './oci-import.js';
export { gitRevision } from './git-revision.js';
export { ImageResolver } from './image-resolver.js';
export { BundleStore, DEFAULT_TAG_TTL_MS, type BundleStoreOptions } from './store.js';
export * from './media-types.js';
