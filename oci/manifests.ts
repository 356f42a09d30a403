// Parsing and validating manifests: OCI image manifest and index, docker v2 schema2 manifest and
// manifest list. The media type comes from the Content-Type header or, when that is generic, from
// the document's own mediaType field; the two must agree when both are specific. Anything else is
// refused (hazard 25). Invariants: every returned descriptor has a valid digest, a non-negative
// safe-integer size and a string media type; errors name the value path that is wrong.
import { OciError } from './errors.js';
import { isDigest } from './digest.js';
import {
  DOCKER_MANIFEST_LIST,
  DOCKER_MANIFEST_V2,
  OCI_INDEX,
  OCI_MANIFEST,
  isManifestMediaType,
  type ManifestMediaType,
} from './media-types.js';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
  platform?: { architecture: string; os: string; variant?: string };
}

export interface ImageManifest {
  kind: 'manifest';
  mediaType: ManifestMediaType;
  config: Descriptor;
  layers: Descriptor[];
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface ImageIndex {
  kind: 'index';
  mediaType: ManifestMediaType;
  manifests: Descriptor[];
  annotations?: Record<string, string>;
}

export type Manifest = ImageManifest | ImageIndex;

const GENERIC_CONTENT_TYPES = new Set(['', 'application/json', 'application/octet-stream', 'text/plain']);

/** Decides the manifest media type; throws OCI_MEDIA_TYPE for anything we do not support. */
function manifestMediaType(contentType: string | undefined, doc: unknown, what: string): ManifestMediaType {
  const header = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const field = isRecord(doc) && typeof doc['mediaType'] === 'string' ? doc['mediaType'] : undefined;
  if (!GENERIC_CONTENT_TYPES.has(header)) {
    if (!isManifestMediaType(header))
      throw new OciError('OCI_MEDIA_TYPE', `${what}: unsupported manifest media type ${JSON.stringify(header)}`);
    if (field !== undefined && field !== header) {
      throw new OciError(
        'OCI_MEDIA_TYPE',
        `${what}: Content-Type ${header} disagrees with the document's mediaType ${JSON.stringify(field)}`,
      );
    }
    return header;
  }
  if (field !== undefined) {
    if (!isManifestMediaType(field))
      throw new OciError('OCI_MEDIA_TYPE', `${what}: unsupported manifest media type ${JSON.stringify(field)}`);
    return field;
  }
  throw new OciError(
    'OCI_MEDIA_TYPE',
    `${what}: neither the Content-Type nor the document says what kind of manifest this is`,
  );
}

export function parseManifest(bytes: Uint8Array, contentType: string | undefined, what: string): Manifest {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new OciError('OCI_MANIFEST', `${what}: manifest is not valid UTF-8 JSON`);
  }
  if (!isRecord(doc)) throw new OciError('OCI_MANIFEST', `${what}: manifest is not a JSON object`);
  const mediaType = manifestMediaType(contentType, doc, what);
  if (doc['schemaVersion'] !== 2) throw new OciError('OCI_MANIFEST', `${what}: .schemaVersion must be 2`);
  const annotations = optionalStringMap(doc['annotations'], `${what}: .annotations`);
  if (mediaType === OCI_INDEX || mediaType === DOCKER_MANIFEST_LIST) {
    const list = doc['manifests'];
    if (!Array.isArray(list)) throw new OciError('OCI_MANIFEST', `${what}: .manifests must be an array`);
    const index: ImageIndex = {
      kind: 'index',
      mediaType,
      manifests: list.map((d, i) => parseDescriptor(d, `${what}: .manifests[${i}]`)),
    };
    if (annotations !== undefined) index.annotations = annotations;
    return index;
  }
  if (mediaType !== OCI_MANIFEST && mediaType !== DOCKER_MANIFEST_V2)
    throw new OciError('OCI_MEDIA_TYPE', `${what}: unsupported manifest media type ${mediaType}`);
  const layers = doc['layers'];
  if (!Array.isArray(layers)) throw new OciError('OCI_MANIFEST', `${what}: .layers must be an array`);
  const manifest: ImageManifest = {
    kind: 'manifest',
    mediaType,
    config: parseDescriptor(doc['config'], `${what}: .config`),
    layers: layers.map((d, i) => parseDescriptor(d, `${what}: .layers[${i}]`)),
  };
  if (typeof doc['artifactType'] === 'string') manifest.artifactType = doc['artifactType'];
  if (annotations !== undefined) manifest.annotations = annotations;
  return manifest;
}

function parseDescriptor(v: unknown, where: string): Descriptor {
  if (!isRecord(v)) throw new OciError('OCI_MANIFEST', `${where} is not an object`);
  const { mediaType, digest, size } = v;
  if (typeof mediaType !== 'string' || mediaType === '')
    throw new OciError('OCI_MANIFEST', `${where}.mediaType must be a non-empty string`);
  if (typeof digest !== 'string' || !isDigest(digest))
    throw new OciError('OCI_MANIFEST', `${where}.digest must be sha256:<64 hex> or sha512:<128 hex>`);
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw new OciError('OCI_MANIFEST', `${where}.size must be a non-negative integer`);
  const d: Descriptor = { mediaType, digest, size };
  if (typeof v['artifactType'] === 'string') d.artifactType = v['artifactType'];
  const annotations = optionalStringMap(v['annotations'], `${where}.annotations`);
  if (annotations !== undefined) d.annotations = annotations;
  const p = v['platform'];
  if (isRecord(p) && typeof p['architecture'] === 'string' && typeof p['os'] === 'string') {
    d.platform = { architecture: p['architecture'], os: p['os'] };
    if (typeof p['variant'] === 'string') d.platform.variant = p['variant'];
  }
  return d;
}

function optionalStringMap(v: unknown, where: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw new OciError('OCI_MANIFEST', `${where} must be an object of strings`);
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== 'string') throw new OciError('OCI_MANIFEST', `${where}[${JSON.stringify(k)}] must be a string`);
    out[k] = val;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
