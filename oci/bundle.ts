// kubecfg's OCI bundle format (kubecfg pkg/kubecfg/pack.go and utils/oci.go), kept exactly:
//  - one layer, media type application/vnd.kubecfg.bundle.tar+gzip: a tar.gz of the entry file's
//    import closure, paths relative to the files' longest common directory;
//  - an optional docs layer, application/vnd.kubecfg.bundle.docs.tar+gzip (a tar.gz as given);
//  - config media type application/vnd.oci.empty.v1+json with artifactType
//    application/vnd.kubecfg.bundle.config.v1+json, content {"entrypoint":..., "metadata":{...}},
//    metadata holding {"pack.kubecfg.dev/v1alpha1": {"version": ..., "features": [...]}} merged
//    with the entry file's `_kubecfg_pack_metadata` (the caller evaluates that);
//  - manifest annotations org.opencontainers.image.{created: 1970-01-01T00:00:00Z, revision, source:
//    "kubecfg pack"} plus --annotation k=v.
// Our archives are reproducible (sorted entries, fixed mtime/owner/mode, fixed gzip settings), so
// the same sources always give the same digests. Reading refuses anything but this shape.
import { OciError } from './errors.js';
import { sha256Digest } from './digest.js';
import { gunzipCapped, gzipDeterministic } from './gzip.js';
import { cleanEntryPath } from './archive-path.js';
import { readTar, DEFAULT_TAR_LIMITS, type TarLimits } from './tar-reader.js';
import { writeTar } from './tar-writer.js';
import type { RegistryClient } from './client.js';
import type { Descriptor, ImageManifest } from './manifests.js';
import { formatReference, type Reference } from './reference.js';
import {
  KUBECFG_BUNDLE_BODY,
  KUBECFG_BUNDLE_CONFIG,
  KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE,
  KUBECFG_BUNDLE_DOCS,
  OCI_MANIFEST,
} from './media-types.js';

/** JSON as it appears in bundle metadata (oci/ does not import lang/). */
export type BundleJson = null | boolean | number | string | BundleJson[] | { [key: string]: BundleJson };

/** The top-level field of the entry file that pack merges into the config metadata. */
export const PACK_METADATA_FIELD = '_kubecfg_pack_metadata';
/** The metadata key under which pack records the kubecfg version and needed features. */
export const PACK_METADATA_KEY = 'pack.kubecfg.dev/v1alpha1';

export interface BundleConfig {
  entrypoint: string;
  metadata?: { [key: string]: BundleJson };
}

export interface BundleArtifact {
  body: Uint8Array;
  config: Uint8Array;
  docs?: Uint8Array;
  manifest: Uint8Array;
  manifestDigest: string;
}

export interface PackInput {
  /** Bundle-relative path → content (see bundlePaths to derive paths from absolute ones). */
  files: ReadonlyMap<string, Uint8Array>;
  /** Bundle-relative path of the entry file; must be one of `files`. */
  entrypoint: string;
  kubecfgVersion: string;
  /** Feature gates the bundle needs to evaluate (recorded; importers must enable them). */
  features: readonly string[];
  /** The value of the entry file's `_kubecfg_pack_metadata`, if any. */
  userMetadata?: { [key: string]: BundleJson };
  /** Git revision of the sources; kubecfg writes "unknown" outside a git repository. */
  revision?: string;
  /** `--annotation k=v` pairs, applied over the standard ones. */
  annotations?: Readonly<Record<string, string>>;
  /** Contents of `--docs-tar-file` (a .tar.gz; checked to be gzip). */
  docsArchive?: Uint8Array;
}

/**
 * kubecfg's short names: strips the longest common directory of the absolute paths (POSIX, '/'),
 * so /src/a/b/app.jsonnet + /src/a/lib/x.libsonnet become b/app.jsonnet + lib/x.libsonnet.
 */
export function bundlePaths(
  absolutePaths: readonly string[],
  entry: string,
): { paths: Map<string, string>; entrypoint: string } {
  const all = [...new Set([...absolutePaths, entry])];
  for (const p of all)
    if (!p.startsWith('/')) throw new OciError('OCI_BUNDLE', `pack: ${JSON.stringify(p)} is not an absolute path`);
  let prefix: string;
  if (all.length === 1) {
    prefix = entry.slice(0, entry.lastIndexOf('/') + 1);
  } else {
    const sorted = [...all].sort(compareUtf8);
    const first = sorted[0]!;
    const last = sorted[sorted.length - 1]!;
    let lastSlash = 0;
    for (let i = 0; i < first.length && i < last.length && first[i] === last[i]; i++)
      if (first[i] === '/') lastSlash = i;
    prefix = first.slice(0, lastSlash + 1);
  }
  const paths = new Map<string, string>();
  for (const p of all) paths.set(p, p.slice(prefix.length));
  return { paths, entrypoint: entry.slice(prefix.length) };
}

/** The reproducible tar.gz of the bundle files: entries sorted by UTF-8 bytes. */
export function buildBundleArchive(files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const entries = [...files.entries()].map(([path, data]) => {
    const clean = cleanEntryPath(path, 'file', 'pack');
    if (clean !== path)
      throw new OciError(
        'OCI_BUNDLE',
        `pack: bundle path ${JSON.stringify(path)} is not in normal form (use ${JSON.stringify(clean)})`,
      );
    return { path, data };
  });
  entries.sort((a, b) => compareUtf8(a.path, b.path));
  return gzipDeterministic(writeTar(entries));
}

/** The config blob content: entrypoint plus metadata, keys sorted (jsonnet's manifest order). */
function buildBundleConfig(
  input: Pick<PackInput, 'entrypoint' | 'kubecfgVersion' | 'features' | 'userMetadata'>,
): Uint8Array {
  const pack: { [key: string]: BundleJson } = { version: input.kubecfgVersion };
  if (input.features.length > 0) pack['features'] = [...new Set(input.features)].sort(compareUtf8);
  // User metadata may add keys but not rewrite what pack records about itself.
  const metadata: { [key: string]: BundleJson } = { ...(input.userMetadata ?? {}), [PACK_METADATA_KEY]: pack };
  return new TextEncoder().encode(canonicalJson({ entrypoint: input.entrypoint, metadata }));
}

/** Builds every blob of a bundle without touching the network (also what `pack --output` needs). */
export function buildBundleArtifact(input: PackInput): BundleArtifact {
  if (!input.files.has(input.entrypoint)) {
    throw new OciError(
      'OCI_BUNDLE',
      `pack: entrypoint ${JSON.stringify(input.entrypoint)} is not among the bundle files`,
    );
  }
  const body = buildBundleArchive(input.files);
  const config = buildBundleConfig(input);
  const layers: Descriptor[] = [{ mediaType: KUBECFG_BUNDLE_BODY, digest: sha256Digest(body), size: body.byteLength }];
  if (input.docsArchive !== undefined) {
    const d = input.docsArchive;
    if (d.byteLength < 2 || d[0] !== 0x1f || d[1] !== 0x8b)
      throw new OciError('OCI_BUNDLE', 'pack: --docs-tar-file must be a gzipped tar archive (.tar.gz or .tgz)');
    layers.push({ mediaType: KUBECFG_BUNDLE_DOCS, digest: sha256Digest(d), size: d.byteLength });
  }
  const annotations: Record<string, string> = {
    // Flux's OCIRepository reads these; created is fixed so digests are reproducible.
    'org.opencontainers.image.created': '1970-01-01T00:00:00Z',
    'org.opencontainers.image.revision': input.revision ?? 'unknown',
    'org.opencontainers.image.source': 'kubecfg pack',
  };
  for (const [k, v] of Object.entries(input.annotations ?? {})) {
    if (k === '') throw new OciError('OCI_BUNDLE', 'pack: annotation with an empty key');
    annotations[k] = v;
  }
  // Field order as kubecfg's Go structs marshal (schemaVersion, config, layers, annotations; no mediaType).
  const manifestText =
    '{"schemaVersion":2,"config":' +
    JSON.stringify({
      mediaType: KUBECFG_BUNDLE_CONFIG,
      digest: sha256Digest(config),
      size: config.byteLength,
      artifactType: KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE,
    }) +
    ',"layers":' +
    JSON.stringify(layers) +
    ',"annotations":' +
    canonicalJson(annotations) +
    '}';
  const manifest = new TextEncoder().encode(manifestText);
  const artifact: BundleArtifact = { body, config, manifest, manifestDigest: sha256Digest(manifest) };
  if (input.docsArchive !== undefined) artifact.docs = input.docsArchive;
  return artifact;
}

/** Parses `k=v` (`--annotation`); the value may contain '='. */
export function parseAnnotationFlag(flag: string): [string, string] {
  const eq = flag.indexOf('=');
  if (eq <= 0) throw new OciError('OCI_BUNDLE', `invalid annotation ${JSON.stringify(flag)}: expected key=value`);
  return [flag.slice(0, eq), flag.slice(eq + 1)];
}

/** Pushes a bundle (blobs first, manifest last) under ref's tag; returns the manifest digest. */
export async function pushBundle(
  client: RegistryClient,
  ref: Reference,
  input: PackInput,
): Promise<{ digest: string; artifact: BundleArtifact }> {
  const artifact = buildBundleArtifact(input);
  await client.pushBlob(ref, artifact.body);
  await client.pushBlob(ref, artifact.config);
  if (artifact.docs !== undefined) await client.pushBlob(ref, artifact.docs);
  const digest = await client.putManifest(ref, OCI_MANIFEST, artifact.manifest);
  return { digest, artifact };
}

export interface Bundle {
  /** The reference pinned by digest: registry/repo@sha256:... */
  reference: Reference;
  digest: string;
  manifest: ImageManifest;
  config: BundleConfig;
  /** Bundle-relative path → content. */
  files: ReadonlyMap<string, Uint8Array>;
  /** kubecfg version that packed it, if recorded. */
  kubecfgVersion?: string;
  /** Features the bundle declares it needs. */
  features: string[];
}

export interface BundleLimits extends TarLimits {
  /** Cap on the compressed body layer. */
  maxArchiveBytes: number;
  maxConfigBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  ...DEFAULT_TAR_LIMITS,
  maxArchiveBytes: 50 * 1024 * 1024,
  maxConfigBytes: 1024 * 1024,
};

/** Checks a manifest is a kubecfg bundle and returns its body layer. */
export function bundleBodyLayer(manifest: ImageManifest, what: string): Descriptor {
  const cfgType = manifest.config.mediaType;
  if (cfgType !== KUBECFG_BUNDLE_CONFIG && cfgType !== KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE) {
    throw new OciError(
      'OCI_MEDIA_TYPE',
      `${what}: config media type ${JSON.stringify(cfgType)} is not a kubecfg bundle config (${KUBECFG_BUNDLE_CONFIG})`,
    );
  }
  let body: Descriptor | undefined;
  for (const layer of manifest.layers) {
    if (layer.mediaType === KUBECFG_BUNDLE_BODY) body ??= layer;
    else if (layer.mediaType !== KUBECFG_BUNDLE_DOCS)
      throw new OciError('OCI_MEDIA_TYPE', `${what}: unexpected layer media type ${JSON.stringify(layer.mediaType)}`);
  }
  if (body === undefined)
    throw new OciError('OCI_BUNDLE', `${what}: no layer with media type ${KUBECFG_BUNDLE_BODY}; not a kubecfg bundle`);
  return body;
}

export function parseBundleConfig(bytes: Uint8Array, what: string): BundleConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new OciError('OCI_BUNDLE', `${what}: config is not valid JSON`);
  }
  if (!isRecord(doc)) throw new OciError('OCI_BUNDLE', `${what}: config is not a JSON object`);
  const entrypoint = doc['entrypoint'] ?? '';
  if (typeof entrypoint !== 'string') throw new OciError('OCI_BUNDLE', `${what}: config .entrypoint is not a string`);
  const cfg: BundleConfig = { entrypoint };
  const metadata = doc['metadata'];
  if (metadata !== undefined && metadata !== null) {
    if (!isRecord(metadata)) throw new OciError('OCI_BUNDLE', `${what}: config .metadata is not an object`);
    cfg.metadata = metadata as { [key: string]: BundleJson };
  }
  return cfg;
}

/** Assembles a Bundle from its verified blobs: unpacks the body safely into memory. */
export async function openBundle(
  reference: Reference,
  digest: string,
  manifest: ImageManifest,
  configBytes: Uint8Array,
  bodyBytes: Uint8Array,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
): Promise<Bundle> {
  const what = `bundle ${formatReference(reference)}`;
  const config = parseBundleConfig(configBytes, what);
  const tar = await gunzipCapped(bodyBytes, limits.maxTotalBytes + 1024 * 1024, what);
  const files = readTar(tar, what, limits);
  if (config.entrypoint !== '') {
    const ep = cleanEntryPath(config.entrypoint, 'file', `${what}: config .entrypoint`);
    if (!files.has(ep))
      throw new OciError(
        'OCI_BUNDLE',
        `${what}: entrypoint ${JSON.stringify(config.entrypoint)} is not in the bundle (it has: ${listPaths(files)})`,
      );
  }
  const pack = config.metadata?.[PACK_METADATA_KEY];
  const bundle: Bundle = {
    reference: { registry: reference.registry, repository: reference.repository, digest },
    digest,
    manifest,
    config,
    files,
    features: [],
  };
  if (isRecord(pack)) {
    if (typeof pack['version'] === 'string') bundle.kubecfgVersion = pack['version'];
    const feats = pack['features'];
    if (Array.isArray(feats)) bundle.features = feats.filter((f): f is string => typeof f === 'string');
  }
  return bundle;
}

/** Fetches a bundle from the registry without any caching (the store adds caching). */
export async function pullBundle(
  client: RegistryClient,
  ref: Reference,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
): Promise<Bundle> {
  const fetched = await client.getManifest(ref);
  const what = `bundle ${formatReference(ref)}`;
  if (fetched.manifest.kind !== 'manifest')
    throw new OciError('OCI_BUNDLE', `${what}: is an image index, not a kubecfg bundle`);
  const body = bundleBodyLayer(fetched.manifest, what);
  if (body.size > limits.maxArchiveBytes)
    throw new OciError(
      'OCI_TOO_LARGE',
      `${what}: body layer is ${body.size} bytes, over the ${limits.maxArchiveBytes}-byte cap`,
    );
  const configBytes = await client.getBlob(ref, fetched.manifest.config, limits.maxConfigBytes);
  const bodyBytes = await client.getBlob(ref, body, limits.maxArchiveBytes);
  return openBundle(ref, fetched.digest, fetched.manifest, configBytes, bodyBytes, limits);
}

/** A file of the bundle; a missing path is OCI_NOT_FOUND listing what the bundle has. */
export function bundleFile(bundle: Bundle, path: string): Uint8Array {
  const data = bundle.files.get(path);
  if (data === undefined) {
    throw new OciError(
      'OCI_NOT_FOUND',
      `bundle ${formatReference(bundle.reference)} has no file ${JSON.stringify(path)} (it has: ${listPaths(bundle.files)})`,
    );
  }
  return data;
}

/** Features the bundle declares that are not enabled (empty = fine); remote code never enables them. */
export function missingFeatures(bundle: Bundle, enabled: Iterable<string>): string[] {
  const on = new Set(enabled);
  return bundle.features.filter((f) => !on.has(f));
}

function listPaths(files: ReadonlyMap<string, Uint8Array>): string {
  const names = [...files.keys()].sort(compareUtf8);
  const shown = names.slice(0, 20).join(', ');
  return names.length > 20 ? `${shown}, ... ${names.length - 20} more` : shown === '' ? 'no files' : shown;
}

function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** JSON with object keys sorted by code point at every level (jsonnet's output order). */
function canonicalJson(v: BundleJson): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const keys = Object.keys(v).sort(compareUtf8);
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(v[k]!)).join(',') + '}';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
