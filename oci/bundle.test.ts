import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  buildBundleArtifact,
  bundleFile,
  bundlePaths,
  missingFeatures,
  openBundle,
  parseAnnotationFlag,
  PACK_METADATA_KEY,
  type PackInput,
} from './bundle.js';
import { readTar } from './tar-reader.js';
import { parseManifest, type ImageManifest } from './manifests.js';
import { sha256Digest } from './digest.js';
import { isOciError } from './errors.js';
import { parseReference } from './reference.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const input = (over: Partial<PackInput> = {}): PackInput => ({
  files: new Map([
    ['b/c/app.jsonnet', enc("(import '../../d/e/base.libsonnet') + {}")],
    ['d/e/base.libsonnet', enc('{ a: 1 }')],
    ['d/f/ns.yakl', enc('kind: Namespace')],
  ]),
  entrypoint: 'b/c/app.jsonnet',
  kubecfgVersion: 'v0.40.0-ts',
  features: ['yakl'],
  ...over,
});

test("bundlePaths strips the files' longest common directory, as kubecfg does", () => {
  const got = bundlePaths(['/src/a/d/e/base.libsonnet', '/src/a/d/f/namespace.libsonnet'], '/src/a/b/c/app.jsonnet');
  assert.equal(got.entrypoint, 'b/c/app.jsonnet');
  assert.deepEqual([...got.paths.values()].sort(), [
    'b/c/app.jsonnet',
    'd/e/base.libsonnet',
    'd/f/namespace.libsonnet',
  ]);
  assert.equal(bundlePaths([], '/src/app.jsonnet').entrypoint, 'app.jsonnet');
  // A shared name prefix that is not a whole directory is not stripped.
  assert.deepEqual([...bundlePaths(['/src/app2/x.libsonnet'], '/src/app/main.jsonnet').paths.values()].sort(), [
    'app/main.jsonnet',
    'app2/x.libsonnet',
  ]);
});

test('the same sources give the same digests (reproducible archive, config and manifest)', () => {
  const a = buildBundleArtifact(input());
  const reordered = new Map([...input().files].reverse());
  const b = buildBundleArtifact(input({ files: reordered }));
  assert.equal(a.manifestDigest, b.manifestDigest);
  assert.deepEqual(a.body, b.body);
  const tarred = readTar(new Uint8Array(gunzipSync(a.body)), 't');
  assert.deepEqual([...tarred.keys()], ['b/c/app.jsonnet', 'd/e/base.libsonnet', 'd/f/ns.yakl']);
  const changed = buildBundleArtifact(
    input({ files: new Map([...input().files, ['d/e/base.libsonnet', enc('{ a: 2 }')]]) }),
  );
  assert.notEqual(changed.manifestDigest, a.manifestDigest);
});

test("the manifest and config are kubecfg's: media types, artifactType, annotations, metadata", () => {
  const a = buildBundleArtifact(
    input({
      revision: 'abc123',
      annotations: { team: 'infra', 'org.opencontainers.image.source': 'override' },
      userMetadata: { docs: 'https://x' },
    }),
  );
  const text = new TextDecoder().decode(a.manifest);
  assert.ok(
    text.startsWith('{"schemaVersion":2,"config":{"mediaType":"application/vnd.oci.empty.v1+json","digest":"sha256:'),
    text,
  );
  assert.ok(
    !text.includes('"mediaType":"application/vnd.oci.image.manifest.v1+json"'),
    'kubecfg leaves the manifest mediaType out',
  );
  const m = JSON.parse(text) as {
    config: Record<string, unknown>;
    layers: Record<string, unknown>[];
    annotations: Record<string, string>;
  };
  assert.deepEqual(m.config, {
    mediaType: 'application/vnd.oci.empty.v1+json',
    digest: sha256Digest(a.config),
    size: a.config.byteLength,
    artifactType: 'application/vnd.kubecfg.bundle.config.v1+json',
  });
  assert.deepEqual(m.layers, [
    { mediaType: 'application/vnd.kubecfg.bundle.tar+gzip', digest: sha256Digest(a.body), size: a.body.byteLength },
  ]);
  assert.deepEqual(m.annotations, {
    'org.opencontainers.image.created': '1970-01-01T00:00:00Z',
    'org.opencontainers.image.revision': 'abc123',
    'org.opencontainers.image.source': 'override',
    team: 'infra',
  });
  assert.equal(
    new TextDecoder().decode(a.config),
    `{"entrypoint":"b/c/app.jsonnet","metadata":{"docs":"https://x","${PACK_METADATA_KEY}":{"features":["yakl"],"version":"v0.40.0-ts"}}}`,
  );
  const parsed = parseManifest(a.manifest, 'application/vnd.oci.image.manifest.v1+json', 'm');
  assert.equal(parsed.kind, 'manifest');
});

test('docs layer, revision default and annotation flags', () => {
  const docs = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  const a = buildBundleArtifact(input({ docsArchive: docs }));
  const m = JSON.parse(new TextDecoder().decode(a.manifest)) as {
    layers: { mediaType: string }[];
    annotations: Record<string, string>;
  };
  assert.deepEqual(
    m.layers.map((l) => l.mediaType),
    ['application/vnd.kubecfg.bundle.tar+gzip', 'application/vnd.kubecfg.bundle.docs.tar+gzip'],
  );
  assert.equal(m.annotations['org.opencontainers.image.revision'], 'unknown');
  assert.throws(() => buildBundleArtifact(input({ docsArchive: enc('not gzip') })), /gzipped tar/);
  assert.deepEqual(parseAnnotationFlag('a=b=c'), ['a', 'b=c']);
  assert.throws(() => parseAnnotationFlag('novalue'), /key=value/);
  assert.throws(() => buildBundleArtifact(input({ entrypoint: 'nope.jsonnet' })), /not among the bundle files/);
  assert.throws(
    () => buildBundleArtifact(input({ files: new Map([['../x', enc('')]]), entrypoint: '../x' })),
    (e) => isOciError(e),
  );
});

test('openBundle unpacks into memory; missing paths list what the bundle has; features are checked', async () => {
  const a = buildBundleArtifact(input());
  const manifest = parseManifest(a.manifest, 'application/vnd.oci.image.manifest.v1+json', 'm') as ImageManifest;
  const ref = parseReference('localhost:5000/libs/app:v1');
  const bundle = await openBundle(ref, a.manifestDigest, manifest, a.config, a.body);
  assert.equal(bundle.config.entrypoint, 'b/c/app.jsonnet');
  assert.equal(bundle.kubecfgVersion, 'v0.40.0-ts');
  assert.deepEqual(bundle.features, ['yakl']);
  assert.equal(new TextDecoder().decode(bundleFile(bundle, 'd/e/base.libsonnet')), '{ a: 1 }');
  assert.throws(
    () => bundleFile(bundle, 'd/e/missing.libsonnet'),
    (e) =>
      isOciError(e, 'OCI_NOT_FOUND') &&
      /it has: b\/c\/app.jsonnet, d\/e\/base.libsonnet, d\/f\/ns.yakl/.test(e.message),
  );
  assert.deepEqual(missingFeatures(bundle, ['yakl']), []);
  assert.deepEqual(missingFeatures(bundle, []), ['yakl']);
  const badConfig = enc('{"entrypoint":"gone.jsonnet"}');
  await assert.rejects(
    openBundle(ref, a.manifestDigest, manifest, badConfig, a.body),
    /entrypoint "gone.jsonnet" is not in the bundle/,
  );
});
