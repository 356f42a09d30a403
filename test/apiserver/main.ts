/**
 * Starts the test API server by hand:
 *   node --import tsx test/apiserver/main.ts --port N --kubeconfig-out FILE
 *     [--token T] [--tls-cert F --tls-key F] [--openapi F]
 * Prints the URL, writes a kubeconfig pointing at it, and serves until
 * SIGINT/SIGTERM. Creation timestamps come from the real clock here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startTestApiServer } from './api-server.js';

/** ../shared/data beside the project root (found from this file, in source or dist/). */
function defaultOpenapiPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, '..', 'shared', 'data', 'kubernetes-openapi-v2.json');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'kubeconfig-out': { type: 'string' },
      token: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      openapi: { type: 'string', default: defaultOpenapiPath() },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: not a port number: ${values.port}`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new Error('--tls-cert and --tls-key go together');
  const bytes = readFileSync(values.openapi);
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
