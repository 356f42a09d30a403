// RegistryClient against a fake registry (node:http) for what a real registry will not do on
// demand: Bearer token flow, redirects to another host, huge and slow answers, 5xx, lies.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { RegistryClient } from './client.js';
import { StaticCredentials } from './docker-config.js';
import { parseReference } from './reference.js';
import { sha256Digest } from './digest.js';
import { isOciError } from './errors.js';

const PASSWORD = 'hunter2-secret-password';
const TOKEN = 'tok-very-secret-123';
const BLOB = new TextEncoder().encode('blob content served by the CDN');
const BLOB_DIGEST = sha256Digest(BLOB);
const EVIL_DIGEST = 'sha256:' + 'e'.repeat(64);
const cdnPaths: string[] = [];
const MANIFEST = new TextEncoder().encode(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: BLOB_DIGEST, size: BLOB.byteLength },
    layers: [],
  }),
);

let registry: Server;
let cdn: Server;
let host = '';
let cdnOrigin = '';
const cdnAuthHeaders: (string | undefined)[] = [];
let flaky = 0;
const openResponses = new Set<ServerResponse>();

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(`127.0.0.1:${typeof a === 'object' && a !== null ? a.port : 0}`);
    }),
  );
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', `http://${host}`);
  if (url.pathname === '/token') {
    const basicOk = req.headers.authorization === 'Basic ' + Buffer.from(`alice:${PASSWORD}`).toString('base64');
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'identity-xyz') {
          res.end(JSON.stringify({ access_token: TOKEN, expires_in: 300 }));
        } else {
          res.statusCode = 401;
          res.end();
        }
      });
      return;
    }
    if (!basicOk) {
      res.statusCode = 401;
      return void res.end();
    }
    return void res.end(JSON.stringify({ token: TOKEN, expires_in: 300 }));
  }
  if (url.pathname.startsWith('/v2/private/')) {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.statusCode = 401;
      res.setHeader(
        'www-authenticate',
        `Bearer realm="http://${host}/token",service="fake",scope="repository:private:pull"`,
      );
      return void res.end('{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}');
    }
    if (url.pathname === '/v2/private/manifests/v1') {
      res.setHeader('content-type', 'application/vnd.oci.image.manifest.v1+json');
      return void res.end(MANIFEST);
    }
    if (url.pathname === `/v2/private/blobs/${EVIL_DIGEST}`) {
      res.statusCode = 307;
      res.setHeader('location', `http://${cdnOrigin}/evil`);
      return void res.end();
    }
    if (url.pathname === `/v2/private/blobs/${BLOB_DIGEST}`) {
      res.statusCode = 307;
      res.setHeader('location', `http://${cdnOrigin}/storage/blob`);
      return void res.end();
    }
  }
  switch (url.pathname) {
    case '/v2/open/manifests/huge-declared':
      res.setHeader('content-type', 'application/vnd.oci.image.index.v1+json');
      res.setHeader('content-length', String(2 * 1024 * 1024 * 1024));
      res.flushHeaders();
      openResponses.add(res);
      return;
    case '/v2/open/manifests/huge-streamed': {
      res.setHeader('content-type', 'application/vnd.oci.image.index.v1+json');
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => undefined);
      pump();
      return;
    }
    case '/v2/open/manifests/slow':
      res.setHeader('content-type', 'application/vnd.oci.image.manifest.v1+json');
      res.write('{');
      openResponses.add(res);
      return;
    case '/v2/open/manifests/flaky':
      if (++flaky < 3) {
        res.statusCode = 503;
        return void res.end();
      }
      res.setHeader('content-type', 'application/vnd.oci.image.manifest.v1+json');
      return void res.end(MANIFEST);
    case '/v2/open/manifests/weird-type':
      res.setHeader('content-type', 'application/vnd.example.unknown+json');
      return void res.end(MANIFEST);
    case '/v2/open/manifests/lying-digest':
      res.setHeader('content-type', 'application/vnd.oci.image.manifest.v1+json');
      res.setHeader('docker-content-digest', 'sha256:' + 'b'.repeat(64));
      return void res.end(MANIFEST);
    case `/v2/open/manifests/${'sha256:' + 'c'.repeat(64)}`:
      res.setHeader('content-type', 'application/vnd.oci.image.manifest.v1+json');
      return void res.end(MANIFEST);
  }
  res.statusCode = 404;
  res.end('{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}');
}

before(async () => {
  registry = createServer(handle);
  host = await listen(registry);
  cdn = createServer((req, res) => {
    cdnAuthHeaders.push(req.headers.authorization);
    cdnPaths.push(req.url ?? '');
    if (req.url === '/evil') {
      // A redirect target that tries to phish the registry's credentials with its own challenge.
      res.statusCode = 401;
      res.setHeader('www-authenticate', `Bearer realm="http://${cdnOrigin}/steal",service="evil"`);
      return void res.end();
    }
    res.end(BLOB);
  });
  cdnOrigin = await listen(cdn);
});

after(async () => {
  for (const r of openResponses) r.destroy();
  registry.closeAllConnections();
  cdn.closeAllConnections();
  await new Promise((r) => registry.close(r));
  await new Promise((r) => cdn.close(r));
});

const client = (extra: ConstructorParameters<typeof RegistryClient>[0] = {}): RegistryClient =>
  new RegistryClient({ insecureRegistries: [host], sleep: async () => undefined, ...extra });

test('Bearer flow with basic credentials; the token never leaves for the CDN after a redirect', async () => {
  const c = client({ credentials: new StaticCredentials({ [host]: { username: 'alice', password: PASSWORD } }) });
  try {
    const m = await c.getManifest(parseReference(`${host}/private:v1`));
    assert.equal(m.digest, sha256Digest(MANIFEST));
    const blob = await c.getBlob(
      { registry: host, repository: 'private' },
      { digest: BLOB_DIGEST, size: BLOB.byteLength },
    );
    assert.deepEqual(blob, BLOB);
    assert.deepEqual(cdnAuthHeaders, [undefined], 'no Authorization header reached the other host');
  } finally {
    await c.close();
  }
});

test('a 401 challenge from a redirect target is not answered with the registry credentials', async () => {
  const c = client({ credentials: new StaticCredentials({ [host]: { username: 'alice', password: PASSWORD } }) });
  try {
    cdnAuthHeaders.length = 0;
    cdnPaths.length = 0;
    await assert.rejects(c.getBlob({ registry: host, repository: 'private' }, { digest: EVIL_DIGEST, size: 10 }), (e) =>
      isOciError(e, 'OCI_UNAUTHORIZED'),
    );
    assert.deepEqual(cdnPaths, ['/evil']);
    assert.deepEqual(cdnAuthHeaders, [undefined]);
  } finally {
    await c.close();
  }
});

test('Bearer flow with an identity token (refresh_token grant)', async () => {
  const c = client({ credentials: new StaticCredentials({ [host]: { identityToken: 'identity-xyz' } }) });
  try {
    assert.equal((await c.getManifest(parseReference(`${host}/private:v1`))).digest, sha256Digest(MANIFEST));
  } finally {
    await c.close();
  }
});

test('wrong or missing credentials: OCI_UNAUTHORIZED, and no secret in the message', async () => {
  for (const creds of [
    undefined,
    new StaticCredentials({ [host]: { username: 'alice', password: 'wrong-' + PASSWORD } }),
  ]) {
    const c = client(creds === undefined ? {} : { credentials: creds });
    try {
      await assert.rejects(c.getManifest(parseReference(`${host}/private:v1`)), (e) => {
        assert.ok(isOciError(e, 'OCI_UNAUTHORIZED'), String(e));
        assert.ok(
          !e.message.includes(PASSWORD) && !e.message.includes(TOKEN) && !e.message.includes('Basic '),
          e.message,
        );
        return true;
      });
    } finally {
      await c.close();
    }
  }
});

test('a 2 GB index is refused at the cap, declared or streamed (hazard 25)', async () => {
  const c = client({ limits: { manifestMaxBytes: 1024 * 1024 } });
  try {
    for (const tag of ['huge-declared', 'huge-streamed']) {
      await assert.rejects(
        c.getManifest(parseReference(`${host}/open:${tag}`)),
        (e) => isOciError(e, 'OCI_TOO_LARGE'),
        tag,
      );
    }
  } finally {
    await c.close();
  }
});

test('a registry that stops answering hits the deadline', async () => {
  const c = client({ limits: { requestTimeoutMs: 300 }, retry: { attempts: 1 } });
  try {
    await assert.rejects(c.getManifest(parseReference(`${host}/open:slow`)), (e) => isOciError(e, 'OCI_TIMEOUT'));
  } finally {
    await c.close();
  }
});

test('5xx answers are retried with backoff, then succeed', async () => {
  const delays: number[] = [];
  const c = client({ sleep: async (ms) => void delays.push(ms) });
  try {
    flaky = 0;
    assert.equal((await c.getManifest(parseReference(`${host}/open:flaky`))).digest, sha256Digest(MANIFEST));
    assert.equal(flaky, 3);
    assert.equal(delays.length, 2);
  } finally {
    await c.close();
  }
});

test('unknown media types, digest lies and tampered digest-pinned content are refused', async () => {
  const c = client();
  try {
    await assert.rejects(c.getManifest(parseReference(`${host}/open:weird-type`)), (e) =>
      isOciError(e, 'OCI_MEDIA_TYPE'),
    );
    await assert.rejects(c.getManifest(parseReference(`${host}/open:lying-digest`)), (e) =>
      isOciError(e, 'OCI_DIGEST_MISMATCH'),
    );
    await assert.rejects(c.getManifest(parseReference(`${host}/open@sha256:${'c'.repeat(64)}`)), (e) =>
      isOciError(e, 'OCI_DIGEST_MISMATCH'),
    );
    await assert.rejects(
      c.getManifest(parseReference(`${host}/open:missing`)),
      (e) => isOciError(e, 'OCI_NOT_FOUND') && /tag "missing" not found/.test(e.message),
    );
    // An error body longer than the expected blob is still read as an error, not as "too large".
    await assert.rejects(c.getBlob({ registry: host, repository: 'open' }, { digest: EVIL_DIGEST, size: 5 }), (e) =>
      isOciError(e, 'OCI_NOT_FOUND'),
    );
  } finally {
    await c.close();
  }
});

test('a registry that is down is a clear network error', async () => {
  const c = new RegistryClient({ insecureRegistries: ['127.0.0.1:1'], sleep: async () => undefined });
  try {
    await assert.rejects(
      c.resolve(parseReference('127.0.0.1:1/app:v1')),
      (e) => isOciError(e, 'OCI_NETWORK') && /cannot reach 127\.0\.0\.1:1/.test(e.message),
    );
  } finally {
    await c.close();
  }
});
