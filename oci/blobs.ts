// Blob uploads (distribution spec "Pushing blobs"): skip when the registry has the blob, try a
// cross-repository mount when asked, else upload monolithically (POST then PUT ?digest=) or in
// chunks (POST, PATCH with Content-Range per chunk, then PUT ?digest=). Upload locations may be
// relative or absolute; credentials go only to the registry's own origin (RegistryClient.call).
import { OciError } from './errors.js';
import { sha256Digest } from './digest.js';
import type { RegistryClient, RepositoryRef } from './client.js';
import { expectStatus } from './registry-status.js';
import type { HttpResponse } from './http-transport.js';

export interface PushBlobOptions {
  /** Upload in PATCH chunks of this many bytes when the blob is larger. */
  chunkSize?: number;
  /** Repository in the same registry that already holds the blob: try a mount first. */
  mountFrom?: string;
}

export async function pushBlobData(
  client: RegistryClient,
  repo: RepositoryRef,
  data: Uint8Array,
  opts: PushBlobOptions,
): Promise<{ digest: string; size: number; mounted: boolean; skipped: boolean }> {
  const digest = sha256Digest(data);
  const size = data.byteLength;
  const where = `${repo.registry}/${repo.repository}`;
  if (await client.hasBlob(repo, digest)) return { digest, size, mounted: false, skipped: true };

  let start: HttpResponse;
  if (opts.mountFrom !== undefined) {
    const what = `mounting blob ${digest} from ${opts.mountFrom} into ${where}`;
    start = await client.call({
      repo,
      method: 'POST',
      target: `/v2/${repo.repository}/blobs/uploads/?mount=${encodeURIComponent(digest)}&from=${encodeURIComponent(opts.mountFrom)}`,
      push: true,
      alsoPull: [opts.mountFrom],
      headers: { 'content-length': '0' },
      maxBytes: 64 * 1024,
      retryable: false,
      what,
    });
    if (start.status === 201) return { digest, size, mounted: true, skipped: false };
    // 202: the registry could not mount and opened an ordinary upload instead.
    expectStatus(start, [202], what);
  } else {
    const what = `starting upload of blob ${digest} to ${where}`;
    start = await client.call({
      repo,
      method: 'POST',
      target: `/v2/${repo.repository}/blobs/uploads/`,
      push: true,
      headers: { 'content-length': '0' },
      maxBytes: 64 * 1024,
      retryable: false,
      what,
    });
    expectStatus(start, [202], what);
  }
  let location = uploadLocation(client, repo, start, `upload of ${digest} to ${where}`);

  const chunkSize = opts.chunkSize;
  if (chunkSize !== undefined && (!Number.isSafeInteger(chunkSize) || chunkSize <= 0)) {
    throw new OciError('OCI_REGISTRY', `upload of ${digest} to ${where}: chunk size must be a positive integer`);
  }
  let finalBody: Uint8Array = data;
  if (chunkSize !== undefined && size > chunkSize) {
    for (let offset = 0; offset < size; offset += chunkSize) {
      const chunk = data.subarray(offset, Math.min(size, offset + chunkSize));
      const what = `uploading bytes ${offset}-${offset + chunk.byteLength - 1} of blob ${digest} to ${where}`;
      const res = await client.call({
        repo,
        method: 'PATCH',
        target: location,
        push: true,
        headers: {
          'content-type': 'application/octet-stream',
          'content-range': `${offset}-${offset + chunk.byteLength - 1}`,
          'content-length': String(chunk.byteLength),
        },
        body: chunk,
        maxBytes: 64 * 1024,
        timeoutMs: client.limits.blobTimeoutMs,
        retryable: false,
        what,
      });
      expectStatus(res, [202], what);
      location = uploadLocation(client, repo, res, what);
    }
    finalBody = new Uint8Array(0);
  }
  const what = `finishing upload of blob ${digest} to ${where}`;
  const put = new URL(location);
  put.searchParams.set('digest', digest);
  const res = await client.call({
    repo,
    method: 'PUT',
    target: put,
    push: true,
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(finalBody.byteLength) },
    body: finalBody,
    maxBytes: 64 * 1024,
    timeoutMs: client.limits.blobTimeoutMs,
    retryable: false,
    what,
  });
  expectStatus(res, [201], what);
  return { digest, size, mounted: false, skipped: false };
}

function uploadLocation(client: RegistryClient, repo: RepositoryRef, res: HttpResponse, what: string): URL {
  const location = res.headers['location'];
  if (location === undefined) throw new OciError('OCI_REGISTRY', `${what}: registry gave no upload Location`);
  try {
    return new URL(location, client.baseUrl(repo.registry));
  } catch {
    throw new OciError('OCI_REGISTRY', `${what}: upload Location is not a URL`);
  }
}
