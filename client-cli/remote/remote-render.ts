/**
 * One remote render, client side: find the root (git top level, else the
 * working directory), rewrite the command to root-relative paths, build the
 * manifest, ask which digests the service lacks, upload only those (batched),
 * and ask for the render. A service that is unreachable, hangs up or is
 * draining is retried once after a short pause (a restarted or replaced
 * replica); a second failure is reported. Cluster connection flags and the
 * environment never leave the machine: the service holds no cluster credentials.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import {
  RemoteErrorCodes,
  RemoteMethods,
  UPLOAD_BATCH_MAX_BYTES,
  type CommandParams,
  type FlagValue,
  type RemoteMissingResult,
  type RemoteRenderResult,
  type RemoteUploadResult,
} from '../../protocol/index.js';
import { remoteCall, RemoteCallError, RemoteUnavailableError, type RemoteEndpoint } from './https-rpc.js';
import { buildManifest, gitTopLevel, readManifestFile, sha256Digest, type Manifest } from './manifest.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

export class RemoteSetupError extends Error {}

/** Flags that only the client-side cluster stage or the CLI itself uses. */
const LOCAL_ONLY_FLAGS = new Set([
  'progress',
  'remote',
  'remote-token-file',
  'remote-ca',
  'no-daemon',
  'daemon-url',
  'daemon-token-file',
  'kubeconfig',
  'context',
  'cluster',
  'user',
  'server',
  'token',
  'as',
  'as-group',
  'as-uid',
  'username',
  'password',
  'certificate-authority',
  'client-certificate',
  'client-key',
  'insecure-skip-tls-verify',
  'request-timeout',
  'tls-server-name',
]);
const PATH_LIST_FLAGS = ['jpath'];
const KEYED_PATH_FLAGS = ['ext-str-file', 'ext-code-file', 'tla-str-file', 'tla-code-file'];
const PATH_FLAGS = ['overlay-code-file', 'root'];

export interface RemoteRenderStats {
  files: number;
  fromIndex: number;
  uploadedBlobs: number;
  uploadedBytes: number;
  retried: boolean;
}

function toPosix(p: string): string {
  return p.split(sep).join('/');
}

/** A path as the render should see it: relative to cwd, and inside the root. */
function rewritePath(root: string, cwd: string, p: string, what: string): string {
  const abs = resolve(cwd, p);
  if (abs !== root && !abs.startsWith(root + sep))
    throw new RemoteSetupError(`${what} ${JSON.stringify(p)} is outside the remote render root ${root}`);
  return isAbsolute(p) ? toPosix(relative(cwd, abs) || '.') : toPosix(p);
}

export function remoteParams(root: string, params: CommandParams): CommandParams {
  const cwd = resolve(params.cwd);
  if (cwd !== root && !cwd.startsWith(root + sep))
    throw new RemoteSetupError(`the working directory is outside the remote render root ${root}`);
  const flags: Record<string, FlagValue> = Object.create(null) as Record<string, FlagValue>;
  for (const [name, value] of Object.entries(params.flags)) {
    if (LOCAL_ONLY_FLAGS.has(name)) continue;
    if (PATH_LIST_FLAGS.includes(name) && Array.isArray(value))
      flags[name] = value.map((p) => rewritePath(root, cwd, p, `--${name}`));
    else if (KEYED_PATH_FLAGS.includes(name) && Array.isArray(value))
      flags[name] = value.map((entry) => {
        const eq = entry.indexOf('=');
        return eq < 0 ? entry : `${entry.slice(0, eq)}=${rewritePath(root, cwd, entry.slice(eq + 1), `--${name}`)}`;
      });
    else if (PATH_FLAGS.includes(name) && typeof value === 'string')
      flags[name] = rewritePath(root, cwd, value, `--${name}`);
    else flags[name] = value;
  }
  const args = params.args.map((a) => (a === '-' ? a : rewritePath(root, cwd, a, 'input')));
  return { ...params, args, flags, cwd: toPosix(relative(root, cwd)) || '.', env: {} };
}

function manifestFileSize(m: Manifest, rel: string): number {
  try {
    return statSync(join(m.root, m.sources.get(rel) ?? rel)).size;
  } catch {
    return 0; // the upload reports an unreadable file
  }
}

function sizeText(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1048576
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;
}

function gitBlobId(bytes: Uint8Array): string {
  return 'git-sha1:' + createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** Uploads the blobs named by `digests`; a git id whose bytes differ (clean filters) becomes a sha256 entry. */
async function upload(
  endpoint: RemoteEndpoint,
  manifest: Manifest,
  digests: string[],
  stats: RemoteRenderStats,
  signal?: AbortSignal,
  progress?: (line: string) => void,
): Promise<boolean> {
  const want = new Set(digests);
  const byDigest = new Map<string, string>();
  for (const [path, d] of Object.entries(manifest.files)) if (want.has(d) && !byDigest.has(d)) byDigest.set(d, path);
  const files = [...byDigest].map(([digest, path]) => ({ digest, path }));
  // Sizes from stat, so the bytes are still read one batch at a time.
  const totalBytes = progress ? files.reduce((n, f) => n + manifestFileSize(manifest, f.path), 0) : 0;
  progress?.(`uploading ${files.length} of ${stats.files} files (${sizeText(totalBytes)})`);
  let done = 0;
  let doneBytes = 0;
  let batch: { digest: string; data: string }[] = [];
  let batchBytes = 0;
  let changed = false;
  const flush = async (): Promise<void> => {
    if (!batch.length) return;
    const r = await remoteCall<RemoteUploadResult>(endpoint, RemoteMethods.upload, { blobs: batch }, undefined, signal);
    stats.uploadedBlobs += batch.length;
    stats.uploadedBytes += r.bytes;
    done += batch.length;
    doneBytes += batchBytes;
    progress?.(`uploaded ${done}/${files.length} files (${sizeText(doneBytes)} of ${sizeText(totalBytes)})`);
    batch = [];
    batchBytes = 0;
  };
  for (const { digest, path } of files) {
    const bytes = readManifestFile(manifest, path);
    let sent = digest;
    if (digest.startsWith('git-sha1:') && gitBlobId(bytes) !== digest) {
      sent = sha256Digest(bytes);
      for (const [p, d] of Object.entries(manifest.files)) if (d === digest) manifest.files[p] = sent;
      changed = true;
    }
    if (batchBytes + bytes.byteLength > UPLOAD_BATCH_MAX_BYTES * 0.9) await flush();
    batch.push({ digest: sent, data: bytes.toString('base64') });
    batchBytes += bytes.byteLength;
  }
  await flush();
  return changed;
}

async function attempt(
  endpoint: RemoteEndpoint,
  method: string,
  params: CommandParams,
  manifest: Manifest,
  stats: RemoteRenderStats,
  signal?: AbortSignal,
  progress?: (line: string) => void,
): Promise<RemoteRenderResult> {
  const digests = [...new Set(Object.values(manifest.files))];
  const { missing } = await remoteCall<RemoteMissingResult>(
    endpoint,
    RemoteMethods.missing,
    { digests },
    undefined,
    signal,
  );
  if (missing.length) await upload(endpoint, manifest, missing, stats, signal, progress);
  else progress?.(`all ${stats.files} files already on the service`);
  const ask = (): Promise<RemoteRenderResult> =>
    remoteCall<RemoteRenderResult>(
      endpoint,
      RemoteMethods.render,
      { method, params, manifest: manifest.files },
      undefined,
      signal,
    );
  try {
    return await ask();
  } catch (err) {
    // Another replica behind the same address, or blobs evicted in between: upload what it names, ask once more.
    if (!(err instanceof RemoteCallError) || err.code !== RemoteErrorCodes.MissingBlobs) throw err;
    const again = (err.data as { missing?: unknown } | undefined)?.missing;
    if (!Array.isArray(again)) throw err;
    await upload(
      endpoint,
      manifest,
      again.filter((d): d is string => typeof d === 'string'),
      stats,
      signal,
      progress,
    );
    return ask();
  }
}

const retriable = (err: unknown): boolean =>
  err instanceof RemoteUnavailableError || (err instanceof RemoteCallError && err.code === RemoteErrorCodes.Draining);

export async function renderRemotely(
  endpoint: RemoteEndpoint,
  method: string,
  params: CommandParams,
  warn: (line: string) => void,
  retryDelayMs = 1000,
  signal?: AbortSignal,
  /** Receives upload progress lines (the caller decides whether to print them: --progress). */
  progress?: (line: string) => void,
): Promise<{ result: RemoteRenderResult; stats: RemoteRenderStats }> {
  const cwd = resolve(params.cwd);
  const top = gitTopLevel(cwd);
  const root = resolve(top ?? cwd);
  const sent = remoteParams(root, params);
  const manifest = buildManifest(root, top !== undefined);
  for (const w of manifest.warnings) warn(`kubecfg: remote: ${w}`);
  const stats: RemoteRenderStats = {
    files: Object.keys(manifest.files).length,
    fromIndex: manifest.fromIndex,
    uploadedBlobs: 0,
    uploadedBytes: 0,
    retried: false,
  };
  try {
    return { result: await attempt(endpoint, method, sent, manifest, stats, signal, progress), stats };
  } catch (err) {
    if (!retriable(err) || signal?.aborted) throw err;
    stats.retried = true;
    await new Promise((r) => setTimeout(r, retryDelayMs));
    try {
      return { result: await attempt(endpoint, method, sent, manifest, stats, signal, progress), stats };
    } catch (again) {
      if (again instanceof Error && retriable(again)) again.message += ' (after one retry)';
      throw again;
    }
  }
}
