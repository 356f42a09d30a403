/**
 * The Kubernetes 1.36 OpenAPI v2 document kept in the repository (gzip, see
 * test/data/README.md), so tests and the test API server need nothing beside
 * the checkout. Read and parsed at most once per process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { repoRoot } from './repo-root.js';

export const OPENAPI_GZ_PATH = join(repoRoot(import.meta.url), 'test', 'data', 'kubernetes-openapi-v2.json.gz');

let bytes: Buffer | undefined;
let doc: unknown;

/** The document's JSON text as bytes (what `/openapi/v2` serves). */
export function kubernetesOpenApiBytes(): Buffer {
  return (bytes ??= gunzipSync(readFileSync(OPENAPI_GZ_PATH)));
}

/** The parsed document; callers cast it to the shape they read. */
export function kubernetesOpenApi(): unknown {
  return (doc ??= JSON.parse(kubernetesOpenApiBytes().toString('utf8')));
}
