// End-to-end against a real CNCF distribution registry (Debian's docker-registry) on loopback:
// push kubecfg bundles, pull them back, check digests, tag resolution, the store's caching, auth
// and TLS. Skips with the reason when the registry binary (or openssl/perl for TLS) is absent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RegistryClient, type RegistryClientOptions } from '../../oci/client.js';
import { DockerConfigCredentials, StaticCredentials } from '../../oci/docker-config.js';
import { parseReference, formatReference } from '../../oci/reference.js';
import { pullBundle, pushBundle, bundleFile, buildBundleArtifact, type PackInput } from '../../oci/bundle.js';
import { BundleStore } from '../../oci/store.js';
import { ImageResolver } from '../../oci/image-resolver.js';
import { sha256Digest } from '../../oci/digest.js';
import { isOciError } from '../../oci/errors.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from './registry-fixture.js';
import { startTokenServer, type TestTokenServer } from './token-server.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const packInput = (version: string): PackInput => ({
  files: new Map([
    ['app.jsonnet', enc("local lib = import 'lib/k8s.libsonnet'; lib.ns('demo')")],
    [
      'lib/k8s.libsonnet',
      enc(
        `{ ns(name):: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: name, labels: { v: '${version}' } } } }`,
      ),
    ],
    ['data/banner.txt', enc('hello')],
  ]),
  entrypoint: 'app.jsonnet',
  kubecfgVersion: 'v0.40.0-ts',
  features: [],
  revision: 'deadbeef',
});

const plainSkip = registrySkipReason();
describe('plain-HTTP registry', { skip: plainSkip ?? false }, () => {
  let reg: TestRegistry;
  let cacheDir: string;
  const requests: string[] = [];
  let client: RegistryClient;
  before(async () => {
    reg = await startTestRegistry();
    cacheDir = mkdtempSync(join(tmpdir(), 'kubecfg-oci-cache-'));
    client = new RegistryClient({
      insecureRegistries: [reg.host],
      onRequest: (m, u) => void requests.push(`${m} ${new URL(u).pathname}`),
    });
  });
  after(async () => {
    await client?.close();
    await reg?.stop();
    if (cacheDir !== undefined) rmSync(cacheDir, { recursive: true, force: true });
  });

  test('pack pushes a bundle that pulls back byte for byte, with reproducible digests', async () => {
    const ref = parseReference(`${reg.host}/libs/app:v1`);
    const pushed = await pushBundle(client, ref, packInput('1'));
    const again = await pushBundle(client, parseReference(`${reg.host}/libs/app:v1-again`), packInput('1'));
    assert.equal(again.digest, pushed.digest, 'same sources, same manifest digest');
    assert.equal((await client.resolve(ref)).digest, pushed.digest);
    const bundle = await pullBundle(client, ref);
    assert.equal(bundle.digest, pushed.digest);
    assert.equal(bundle.config.entrypoint, 'app.jsonnet');
    assert.deepEqual(bundle.files, packInput('1').files);
    assert.equal(bundle.manifest.annotations?.['org.opencontainers.image.revision'], 'deadbeef');
    const byDigest = await pullBundle(client, parseReference(`${reg.host}/libs/app@${pushed.digest}`));
    assert.equal(new TextDecoder().decode(bundleFile(byDigest, 'data/banner.txt')), 'hello');
  });

  test('a missing tag, an unknown digest and a missing repository are OCI_NOT_FOUND', async () => {
    await pushBundle(client, parseReference(`${reg.host}/libs/present:v1`), packInput('1'));
    const table = [
      `${reg.host}/libs/present:nope`,
      `${reg.host}/libs/present@sha256:${'0'.repeat(64)}`,
      `${reg.host}/libs/absent:v1`,
    ];
    for (const r of table) {
      await assert.rejects(
        pullBundle(client, parseReference(r)),
        (e) => isOciError(e, 'OCI_NOT_FOUND') && e.message.includes(`${reg.host}/libs/`),
        r,
      );
    }
  });

  test('chunked upload, cross-repository mount and an existing blob', async () => {
    const data = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    const repo = { registry: reg.host, repository: 'blobs/source' };
    const first = await client.pushBlob(repo, data, { chunkSize: 64 * 1024 });
    assert.deepEqual([first.digest, first.mounted, first.skipped], [sha256Digest(data), false, false]);
    assert.equal((await client.pushBlob(repo, data)).skipped, true);
    const mounted = await client.pushBlob({ registry: reg.host, repository: 'blobs/target' }, data, {
      mountFrom: 'blobs/source',
    });
    assert.equal(mounted.mounted, true);
    assert.deepEqual(
      await client.getBlob(
        { registry: reg.host, repository: 'blobs/target' },
        { digest: first.digest, size: data.byteLength },
      ),
      data,
    );
    await assert.rejects(
      client.getBlob(repo, { digest: first.digest, size: data.byteLength - 1 }),
      (e) => isOciError(e, 'OCI_TOO_LARGE') || isOciError(e, 'OCI_DIGEST_MISMATCH'),
    );
  });

  test('the store fetches a tag once per TTL and a digest never again; failures cache nothing', async () => {
    const ref = parseReference(`${reg.host}/libs/cached:v1`);
    const { digest } = await pushBundle(client, ref, packInput('2'));
    let now = 1_000_000;
    const store = new BundleStore({ cacheDir, client, now: () => now, tagTtlMs: 60_000 });
    requests.length = 0;
    const b1 = await store.get(ref);
    assert.equal(b1.digest, digest);
    assert.ok(requests.length >= 3, requests.join('\n'));
    requests.length = 0;
    await store.get(ref);
    assert.deepEqual(requests, [], 'within the TTL: no registry request');
    now += 61_000;
    await store.get(ref);
    assert.deepEqual(requests, [`HEAD /v2/libs/cached/manifests/v1`], 'after the TTL: only the tag is resolved again');
    requests.length = 0;
    const fresh = new BundleStore({ cacheDir, client });
    const b2 = await fresh.get(parseReference(`${reg.host}/libs/cached@${digest}`));
    assert.deepEqual(requests, [], 'by digest from disk: no registry request');
    assert.deepEqual(b2.files, b1.files);
    const blobDir = join(cacheDir, 'oci', 'blobs', 'sha256');
    const before = readdirSync(blobDir).sort();
    await assert.rejects(fresh.get(parseReference(`${reg.host}/libs/cached:missing`)), (e) =>
      isOciError(e, 'OCI_NOT_FOUND'),
    );
    assert.deepEqual(readdirSync(blobDir).sort(), before, 'nothing written by a failed fetch');
    // A corrupted stored blob is detected, dropped and fetched again.
    writeFileSync(join(blobDir, digest.slice('sha256:'.length)), 'tampered');
    const refetched = await new BundleStore({ cacheDir, client }).get(
      parseReference(`${reg.host}/libs/cached@${digest}`),
    );
    assert.equal(refetched.digest, digest);
  });

  test('concurrent imports of one tag share a single lookup and a single download', async () => {
    const ref = parseReference(`${reg.host}/libs/shared:v1`);
    await pushBundle(client, ref, packInput('c'));
    const dir = mkdtempSync(join(tmpdir(), 'kubecfg-oci-cache-'));
    try {
      const store = new BundleStore({ cacheDir: dir, client });
      requests.length = 0;
      const got = await Promise.all([store.get(ref), store.get(ref), store.get(ref)]);
      assert.equal(new Set(got.map((b) => b.digest)).size, 1);
      assert.equal(
        requests.filter((r) => r.startsWith('HEAD /v2/libs/shared/manifests/')).length,
        1,
        requests.join('\n'),
      );
      assert.equal(
        requests.filter((r) => r.startsWith('GET /v2/libs/shared/manifests/')).length,
        1,
        requests.join('\n'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an artifact that is not a kubecfg bundle is refused by media type', async () => {
    const ref = parseReference(`${reg.host}/other/image:v1`);
    const layer = await client.pushBlob(ref, enc('not a bundle'));
    const config = await client.pushBlob(ref, enc('{}'));
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: config.digest, size: config.size },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layer.digest, size: layer.size }],
    });
    await client.putManifest(ref, 'application/vnd.oci.image.manifest.v1+json', enc(manifest));
    await assert.rejects(pullBundle(client, ref), (e) => isOciError(e, 'OCI_MEDIA_TYPE'));
    // ...but resolveImage in registry mode pins it by digest.
    const resolver = new ImageResolver(client);
    assert.equal(
      await resolver.resolve(formatReference(ref)),
      `${reg.host}/other/image@${sha256Digest(enc(manifest))}`,
    );
    requests.length = 0;
    await resolver.resolve(formatReference(ref));
    assert.deepEqual(requests, [], 'resolveImage answers are cached');
  });

  test('pack --output bytes equal what was pushed', async () => {
    const artifact = buildBundleArtifact(packInput('3'));
    const ref = parseReference(`${reg.host}/libs/out:v1`);
    const { digest } = await pushBundle(client, ref, packInput('3'));
    assert.equal(digest, artifact.manifestDigest);
    assert.deepEqual(
      await client.getBlob(ref, { digest: sha256Digest(artifact.body), size: artifact.body.byteLength }),
      artifact.body,
    );
  });
});

const secureSkip = registrySkipReason({ tls: true });
describe('TLS registry with htpasswd basic auth', { skip: secureSkip ?? false }, () => {
  let reg: TestRegistry;
  let dir: string;
  before(async () => {
    reg = await startTestRegistry({ secure: true });
    dir = mkdtempSync(join(tmpdir(), 'kubecfg-oci-auth-'));
  });
  after(async () => {
    await reg?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  async function withClient<T>(opts: RegistryClientOptions, fn: (c: RegistryClient) => Promise<T>): Promise<T> {
    const c = new RegistryClient({ ca: reg.caPem!, retry: { attempts: 1 }, ...opts });
    try {
      return await fn(c);
    } finally {
      await c.close();
    }
  }

  test('credentials from a docker config file push and pull over TLS with the test CA', async () => {
    const configPath = join(dir, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        auths: { [`https://${reg.host}`]: { auth: Buffer.from(`${reg.username}:${reg.password}`).toString('base64') } },
      }),
    );
    const credentials = await DockerConfigCredentials.fromFile(configPath);
    await withClient({ credentials }, async (c) => {
      const ref = parseReference(`${reg.host}/secure/app:v1`);
      const { digest } = await pushBundle(c, ref, packInput('s'));
      const bundle = await pullBundle(c, ref);
      assert.equal(bundle.digest, digest);
      assert.deepEqual(bundle.files, packInput('s').files);
    });
  });

  test('no credentials or a wrong password: OCI_UNAUTHORIZED without the secret', async () => {
    const ref = parseReference(`${reg.host}/secure/app:v1`);
    await withClient({}, (c) =>
      assert.rejects(c.resolve(ref), (e) => isOciError(e, 'OCI_UNAUTHORIZED') && /docker login/.test(e.message)),
    );
    const configPath = join(dir, 'wrong.json');
    const wrong = `wrong-${reg.password!}`;
    writeFileSync(configPath, JSON.stringify({ auths: { [reg.host]: { username: reg.username, password: wrong } } }));
    const credentials = await DockerConfigCredentials.fromFile(configPath);
    await withClient({ credentials }, (c) =>
      assert.rejects(
        c.resolve(ref),
        (e) => isOciError(e, 'OCI_UNAUTHORIZED') && !e.message.includes(wrong) && !e.message.includes('Basic'),
      ),
    );
  });

  test('without the test CA the TLS handshake fails as a network error', async () => {
    const c = new RegistryClient({ retry: { attempts: 1 } });
    try {
      await assert.rejects(c.resolve(parseReference(`${reg.host}/secure/app:v1`)), (e) => isOciError(e, 'OCI_NETWORK'));
    } finally {
      await c.close();
    }
    assert.ok(existsSync(dir));
  });
});

describe(
  'registry with Bearer token auth (token server in the test)',
  { skip: registrySkipReason({ tls: true }) ?? false },
  () => {
    let tokens: TestTokenServer;
    let reg: TestRegistry;
    before(async () => {
      tokens = await startTokenServer();
      reg = await startTestRegistry({ token: tokens });
    });
    after(async () => {
      await reg?.stop();
      await tokens?.stop();
    });

    test('push and pull through the token flow; scopes are requested per repository; a mount asks for both', async () => {
      const credentials = new StaticCredentials({
        [reg.host]: { username: tokens.username, password: tokens.password },
      });
      const c = new RegistryClient({ insecureRegistries: [reg.host], credentials, retry: { attempts: 1 } });
      try {
        const ref = parseReference(`${reg.host}/team/app:v1`);
        const { digest } = await pushBundle(c, ref, packInput('t'));
        assert.equal((await pullBundle(c, ref)).digest, digest);
        const artifact = buildBundleArtifact(packInput('t'));
        const mounted = await c.pushBlob({ registry: reg.host, repository: 'team/copy' }, artifact.body, {
          mountFrom: 'team/app',
        });
        assert.equal(mounted.mounted, true);
        assert.ok(
          tokens.requests.some((r) => r.startsWith(`${tokens.username} repository:team/app:pull,push`)),
          tokens.requests.join('\n'),
        );
        assert.ok(
          tokens.requests.some(
            (r) => r.includes('repository:team/copy:pull,push') && r.includes('repository:team/app:pull'),
          ),
          tokens.requests.join('\n'),
        );
      } finally {
        await c.close();
      }
    });

    test('anonymous and wrongly authenticated clients are refused', async () => {
      const ref = parseReference(`${reg.host}/team/app:v1`);
      for (const credentials of [
        undefined,
        new StaticCredentials({ [reg.host]: { username: tokens.username, password: 'nope' } }),
      ]) {
        const c = new RegistryClient({
          insecureRegistries: [reg.host],
          retry: { attempts: 1 },
          ...(credentials === undefined ? {} : { credentials }),
        });
        try {
          await assert.rejects(c.resolve(ref), (e) => isOciError(e, 'OCI_UNAUTHORIZED') && !e.message.includes('nope'));
        } finally {
          await c.close();
        }
      }
    });
  },
);
