/**
 * Starts the test API server by hand (after `npm ci`, which builds dist/):
 *   npm run test-apiserver -- --port N --kubeconfig-out FILE
 *     [--token T] [--tls-cert F --tls-key F] [--openapi F]
 * `--openapi` takes a JSON document, gzip-compressed or not; the default is
 * the repository's Kubernetes 1.36 document (test/data/).
 * Prints the URL, writes a kubeconfig pointing at it, and serves until
 * SIGINT/SIGTERM. Creation timestamps come from the real clock here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { startTestApiServer } from './api-server.js';
import { OPENAPI_GZ_PATH } from '../support/kubernetes-openapi.js';

/** The document's bytes; gzip is recognised by its magic number, not the file name. */
function readOpenapi(path: string): Buffer {
  const raw = readFileSync(path);
  return raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'kubeconfig-out': { type: 'string' },
      token: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      openapi: { type: 'string', default: OPENAPI_GZ_PATH },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port number: ${values.port}`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new Error('--tls-cert and --tls-key go together');
  const bytes = readOpenapi(values.openapi);
  const server = await startTestApiServer(
    {
      openapi: JSON.parse(bytes.toString('utf8')),
      openapiBytes: bytes,
      token: values.token,
      tls:
        values['tls-cert'] !== undefined
          ? { cert: readFileSync(values['tls-cert'], 'utf8'), key: readFileSync(values['tls-key']!, 'utf8') }
          : undefined,
    },
    port,
  );
  if (values['kubeconfig-out'] !== undefined) {
    const caData = values['tls-cert'] !== undefined ? readFileSync(values['tls-cert']).toString('base64') : undefined;
    writeFileSync(values['kubeconfig-out'], server.kubeconfig({ caData }), { mode: 0o600 });
  }
  process.stdout.write(`test API server listening on ${server.url}\n`);
  const stop = (): void => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`test-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
