import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOciImport, resolveInBundle, type BundleSource } from './oci-import.js';
import { buildBundleArtifact, openBundle, type Bundle } from './bundle.js';
import { parseManifest, type ImageManifest } from './manifests.js';
import { formatReference, parseReference, type Reference } from './reference.js';
import { isOciError } from './errors.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

async function fakeSource(
  features: string[],
  entrypoint = 'main.jsonnet',
): Promise<BundleSource & { asked: string[] }> {
  const files = new Map([
    ['main.jsonnet', enc("import 'lib/a.libsonnet'")],
    ['lib/a.libsonnet', enc('{}')],
  ]);
  const a = buildBundleArtifact({ files, entrypoint: 'main.jsonnet', kubecfgVersion: 'v1', features });
  const manifest = parseManifest(a.manifest, 'application/vnd.oci.image.manifest.v1+json', 'm') as ImageManifest;
  const config = enc(
    JSON.stringify({ entrypoint, metadata: { 'pack.kubecfg.dev/v1alpha1': { version: 'v1', features } } }),
  );
  const asked: string[] = [];
  return {
    asked,
    get: async (ref: Reference): Promise<Bundle> => {
      asked.push(formatReference(ref));
      return openBundle(ref, a.manifestDigest, manifest, config, a.body);
    },
  };
}

test('an oci:// URL loads its file; the bundle root means the entrypoint; the pinned URL names the digest', async () => {
  const src = await fakeSource([]);
  const file = await loadOciImport(src, 'oci://r.example.com/libs/app:v1/lib/a.libsonnet', []);
  assert.equal(new TextDecoder().decode(file.data), '{}');
  assert.match(file.pinnedUrl, /^oci:\/\/r\.example\.com\/libs\/app@sha256:[0-9a-f]{64}\/lib\/a\.libsonnet$/);
  const root = await loadOciImport(src, 'oci://r.example.com/libs/app:v1', []);
  assert.equal(root.path, 'main.jsonnet');
  await assert.rejects(
    loadOciImport(src, 'oci://r.example.com/libs/app:v1/nope.libsonnet', []),
    (e) => isOciError(e, 'OCI_NOT_FOUND') && /it has: lib\/a.libsonnet, main.jsonnet/.test(e.message),
  );
  const noEntry = await fakeSource([], '');
  await assert.rejects(loadOciImport(noEntry, 'oci://r.example.com/libs/app:v1', []), /no entrypoint/);
});

test('a bundle that declares features the invocation lacks fails, listing them', async () => {
  const src = await fakeSource(['yakl', 'overlay']);
  await assert.rejects(
    loadOciImport(src, 'oci://r.example.com/libs/app:v1/main.jsonnet', ['yakl']),
    (e) => isOciError(e, 'OCI_BUNDLE') && /needs feature overlay/.test(e.message),
  );
  await assert.rejects(
    loadOciImport(src, 'oci://r.example.com/libs/app:v1/main.jsonnet', []),
    /needs features overlay, yakl/,
  );
  assert.equal(
    (await loadOciImport(src, 'oci://r.example.com/libs/app:v1/main.jsonnet', ['overlay', 'yakl'])).path,
    'main.jsonnet',
  );
});

test('relative imports resolve inside the bundle and never leave it', () => {
  const base = 'oci://r.example.com/libs/app:v1/lib/sub/a.libsonnet';
  const table: [string, string][] = [
    ['b.libsonnet', 'oci://r.example.com/libs/app:v1/lib/sub/b.libsonnet'],
    ['../c.libsonnet', 'oci://r.example.com/libs/app:v1/lib/c.libsonnet'],
    ['./x/../../../main.jsonnet', 'oci://r.example.com/libs/app:v1/main.jsonnet'],
  ];
  for (const [rel, want] of table) assert.equal(resolveInBundle(base, rel), want, rel);
  assert.equal(
    resolveInBundle('oci://r.example.com/libs/app:v1', 'lib/a.libsonnet'),
    'oci://r.example.com/libs/app:v1/lib/a.libsonnet',
  );
  for (const rel of ['../../../x.libsonnet', '/etc/passwd', 'https://evil/x', 'a\\b', '.']) {
    assert.throws(
      () => resolveInBundle(base, rel),
      (e) => isOciError(e, 'OCI_REFERENCE'),
      rel,
    );
  }
  assert.equal(parseReference('r.example.com/libs/app:v1').tag, 'v1');
});
