/**
 * The remote-render wire contract (a shared render service for CI runners,
 * docs/remote.md). Same JSON-RPC 2.0 over HTTP as the daemon, over TLS with a
 * per-tenant bearer token. Inputs are content-addressed: the client asks which
 * digests the server lacks (`remote/missing`), uploads only those
 * (`remote/upload`), then asks for a render (`remote/render`) naming every
 * input by root-relative path → digest. The server renders from its blob store
 * only: a path outside the manifest is missing, never read from the server's disk.
 *
 * Invariants: digests are `sha256:<64 hex>` or `git-sha1:<40 hex>` (the git
 * blob id, `sha1("blob <len>\0" + bytes)`, cheap for clean tracked files);
 * manifest paths are relative, '/'-separated, without '.', '..' or empty
 * segments, NUL or backslash. Imports nothing outside protocol/.
 */
import { daemonCommandNames, findCommand } from './commands.js';
import { findMethod, type CommandParams } from './methods.js';
import {
  arrayOf,
  isPlainObject,
  nonEmptyStr,
  objectOf,
  ParamsError,
  required,
  str,
  type Validator,
} from './validate.js';

export const REMOTE_READY_PATH = '/readyz';
export const REMOTE_TOKEN_ENV = 'KUBECFG_REMOTE_TOKEN';
/** Most files one manifest may name. */
export const MANIFEST_MAX_FILES = 50_000;
/** Largest single blob accepted by remote/upload (decoded bytes). */
export const BLOB_MAX_BYTES = 16 * 1024 * 1024;
/** Most decoded bytes in one remote/upload call; clients batch below this. */
export const UPLOAD_BATCH_MAX_BYTES = 24 * 1024 * 1024;
const MANIFEST_PATH_MAX = 1024;

/** Commands a remote render runs. Cluster commands render remotely and talk to the cluster from the client. */
export const REMOTE_METHODS: readonly string[] = daemonCommandNames().flatMap((name) => {
  const spec = findCommand(name);
  return spec?.remote === true && spec.method !== undefined ? [spec.method] : [];
});

/** JSON-RPC error codes of the remote service (docs/remote.md); -31950..-31959, kept forever. */
export const RemoteErrorCodes = {
  /** The bearer token is missing or wrong (HTTP 401 carries no JSON-RPC body; this is for clients' reports). */
  Unauthorized: -31950,
  /** The render names digests this tenant's blob store lacks; data.missing lists them. */
  MissingBlobs: -31951,
  /** The tenant's render slots and queue are full, or the queue wait ran out. */
  Busy: -31952,
  /** The render child was stopped by a limit: wall time, CPU time, memory, output size. */
  LimitExceeded: -31953,
  /** The request is not allowed remotely (a flag that writes files, --watch, ...). */
  Refused: -31954,
  /** The same input failed repeatedly; it is not rendered again until the cool-down ends. */
  Backoff: -31955,
  /** An upload's bytes do not match its digest, or the tenant's store is full. */
  BadUpload: -31956,
  /** The service is draining for shutdown; retry on another replica. */
  Draining: -31957,
} as const;

export const RemoteMethods = {
  missing: 'remote/missing',
  upload: 'remote/upload',
  render: 'remote/render',
} as const;

export interface RemoteMissingParams {
  digests: string[];
}
export interface RemoteMissingResult {
  /** The asked digests this tenant's blob store lacks, in the order asked. */
  missing: string[];
}

export interface RemoteBlob {
  digest: string;
  /** The bytes, base64. */
  data: string;
}
export interface RemoteUploadParams {
  blobs: RemoteBlob[];
}
export interface RemoteUploadResult {
  stored: number;
  bytes: number;
}

export interface RemoteRenderParams {
  /** The command method (`render/show`, `cluster/diff`, ...), one of REMOTE_METHODS. */
  method: string;
  /** The command; `cwd` is relative to the manifest root ('.' for the root). */
  params: CommandParams;
  /** Root-relative path → digest of every file the render may read. */
  manifest: Record<string, string>;
}
export interface RemoteRenderResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** True when served from the tenant's result cache. */
  cached: boolean;
}

/** data of the RemoteMissingBlobs error: what to upload before asking again. */
export interface RemoteMissingBlobsData {
  missing: string[];
}

const DIGEST_RE = /^(?:sha256:[0-9a-f]{64}|git-sha1:[0-9a-f]{40})$/;

const blobDigest: Validator<string> = (v, f) => {
  const s = str(v, f);
  if (!DIGEST_RE.test(s)) throw new ParamsError(f, 'expected sha256:<64 hex> or git-sha1:<40 hex>');
  return s;
};

/** Why a manifest path is unacceptable, or undefined when it is fine. */
export function manifestPathProblem(path: string): string | undefined {
  if (path === '') return 'empty path';
  if (path.length > MANIFEST_PATH_MAX) return `path longer than ${MANIFEST_PATH_MAX} characters`;
  if (path.includes('\0')) return 'path contains a NUL byte';
  if (path.includes('\\')) return 'path contains a backslash';
  if (path.startsWith('/')) return 'path is absolute';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return 'path has an empty, "." or ".." segment';
  }
  return undefined;
}

const manifestValidator: Validator<Record<string, string>> = (v, f) => {
  if (!isPlainObject(v)) throw new ParamsError(f, 'expected an object of path → digest');
  const keys = Object.keys(v);
  if (keys.length > MANIFEST_MAX_FILES)
    throw new ParamsError(f, `too many files (${keys.length} > ${MANIFEST_MAX_FILES})`);
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const key of keys) {
    const problem = manifestPathProblem(key);
    // The field names the entry by index: a hostile path is not echoed back.
    if (problem) throw new ParamsError(`${f}[${keys.indexOf(key)}]`, problem);
    out[key] = blobDigest(v[key], `${f}[${JSON.stringify(key)}]`);
  }
  return out;
};

const remoteBlob = objectOf<RemoteBlob>({ digest: required(blobDigest), data: required(str) });

export const validateRemoteMissing = (p: unknown): RemoteMissingParams =>
  objectOf<RemoteMissingParams>({ digests: required(arrayOf(blobDigest, MANIFEST_MAX_FILES)) })(p, 'params');

export const validateRemoteUpload = (p: unknown): RemoteUploadParams =>
  objectOf<RemoteUploadParams>({ blobs: required(arrayOf(remoteBlob, MANIFEST_MAX_FILES)) })(p, 'params');

export function validateRemoteRender(p: unknown): RemoteRenderParams {
  const outer = objectOf<{ method: string; params: unknown; manifest: Record<string, string> }>({
    method: required(nonEmptyStr),
    params: required((v) => v),
    manifest: required(manifestValidator),
  })(p, 'params');
  if (!REMOTE_METHODS.includes(outer.method))
    throw new ParamsError('params.method', `expected one of ${REMOTE_METHODS.join(', ')}`);
  const descriptor = findMethod(outer.method);
  if (!descriptor) throw new ParamsError('params.method', 'unknown method');
  const params = descriptor.validate(outer.params) as CommandParams;
  const cwdProblem = params.cwd === '.' ? undefined : manifestPathProblem(params.cwd);
  if (cwdProblem)
    throw new ParamsError('params.params.cwd', `must be '.' or a root-relative directory (${cwdProblem})`);
  return { method: outer.method, params, manifest: outer.manifest };
}
