/**
 * `kubecfg kubocd render --package oci://…` against a real registry
 * (docker-registry): a package image built here in KuboCD's layout (config =
 * the Package as JSON, one content layer holding original.yaml, status.yaml
 * and NAME-VERSION.tgz charts) renders exactly as the same package from a
 * file with a local chart; by tag and by digest; a tag's digest is a
 * dependency of the result; wrong images and broken content are errors
 * naming the image and what is wrong. Skipped when docker-registry is absent.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RegistryClient } from '../../oci/client.js';
import { gzipDeterministic } from '../../oci/gzip.js';
import { OCI_MANIFEST } from '../../oci/media-types.js';
import { parseReference } from '../../oci/reference.js';
import { writeTar, type TarEntry } from '../../oci/tar-writer.js';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../../test/oci/registry-fixture.js';
import { repoRoot } from '../../test/support/repo-root.js';
import { RemoteInputs } from './remote-fetcher.js';
import type { CommandOutcome } from '../commands/outcome.js';
import { KUBOCD_PACKAGE_CONFIG, KUBOCD_PACKAGE_CONTENT } from './kubocd-fetch.js';
import { readKubocdPackageArchive } from '../commands/kubocd-package-archive.js';
import { runCommand } from '../commands/run.js';
import { NO_TTY } from '../../test/support/command-params.js';

const fixtures = join(repoRoot(import.meta.url), 'test/kubocd/fixtures');
const enc = new TextEncoder();
const tty = NO_TTY;

/** The fixture package with its module switched to the local chart (as kubocd-cli.test.ts does). */
function localPackage(dir: string): string {
  return readFileSync(join(dir, 'podinfo-package.yaml'), 'utf8').replace(
    /source:\n\s+oci:\n\s+repository: .*\n\s+tag: .*\n/,
    'source:\n      local:\n        path: ./chart\n',
  );
}

/** A directory as a chart .tgz whose entries live under `top/`. */
function chartTgz(dir: string, top: string): Uint8Array {
  const entries: TarEntry[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else entries.push({ path: `${top}/${relative(dir, p)}`, data: readFileSync(p) });
    }
  };
  walk(dir);
  return gzipDeterministic(writeTar(entries));
}

/** A content layer in KuboCD's layout; `omit` leaves files out to build broken packages. */
function contentLayer(packageText: string, chart: Uint8Array, omit: string[] = []): Uint8Array {
  const files: Record<string, Uint8Array> = {
    'original.yaml': enc.encode(packageText),
    'groomed.yaml': enc.encode(packageText),
    'index.yaml': enc.encode('apiVersion: v1\nentries: {}\n'),
    'status.yaml': enc.encode('apiVersion: v1alpha1\nchartByModule:\n  main:\n    name: podinfo\n    version: 6.7.1\n'),
    'podinfo-6.7.1.tgz': chart,
  };
  return gzipDeterministic(
    writeTar(
      Object.entries(files)
        .filter(([path]) => !omit.includes(path))
        .map(([path, data]) => ({ path, data })),
    ),
  );
}

describe('kubocd render --package oci://', { skip: registrySkipReason() }, () => {
  let reg: TestRegistry;
  let client: RegistryClient;
  let dir: string;
  let cacheDir: string;
  let packageText: string;
  let chart: Uint8Array;

  /** Pushes an image (config + layers) and returns its manifest digest. */
  async function pushImage(
    reference: string,
    layers: Array<{ mediaType: string; data: Uint8Array }>,
    configType = KUBOCD_PACKAGE_CONFIG,
  ): Promise<string> {
    const ref = parseReference(reference);
    const config = await client.pushBlob(ref, enc.encode(JSON.stringify({ name: 'podinfo', tag: '6.7.1-p01' })));
    const pushed = [];
    for (const l of layers) {
      const b = await client.pushBlob(ref, l.data);
      pushed.push({ mediaType: l.mediaType, digest: b.digest, size: b.size });
    }
    const manifest = {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: { mediaType: configType, digest: config.digest, size: config.size },
      layers: pushed,
    };
    return client.putManifest(ref, OCI_MANIFEST, enc.encode(JSON.stringify(manifest)));
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-kubocd-oci-'));
    cacheDir = mkdtempSync(join(tmpdir(), 'kcfg-kubocd-oci-cache-'));
    cpSync(fixtures, dir, { recursive: true });
    packageText = localPackage(dir);
    writeFileSync(join(dir, 'local-package.yaml'), packageText);
    chart = chartTgz(join(dir, 'chart'), 'podinfo');
    reg = await startTestRegistry();
    client = new RegistryClient({ insecureRegistries: [reg.host] });
    await pushImage(`${reg.host}/packages/podinfo:6.7.1-p01`, [
      { mediaType: KUBOCD_PACKAGE_CONTENT, data: contentLayer(packageText, chart) },
    ]);
  });
  after(async () => {
    await client?.close();
    await reg?.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const params = (flags: Record<string, FlagValue>): CommandParams => ({
    requestId: 'r',
    args: ['podinfo-release.yaml'],
    flags: { context: ['context.yaml'], config: ['config.yaml'], 'insecure-registry': [reg.host], ...flags },
    cwd: dir,
    env: { HOME: dir },
    tty,
  });

  async function render(remote: RemoteInputs, flags: Record<string, FlagValue>): Promise<CommandOutcome> {
    return remote.run(async (snapshot) =>
      runCommand('kubocd-render', params(flags), { shouldStop: () => false, testHooks: false, remote: snapshot }),
    );
  }

  test('a package image renders exactly as the same package from a file', async () => {
    const remote = new RemoteInputs({ cacheDir });
    try {
      const fromFile = runCommand('kubocd-render', params({ package: 'local-package.yaml' }), {
        shouldStop: () => false,
        testHooks: false,
      });
      assert.equal(fromFile.exitCode, 0, fromFile.stderr);
      const fromImage = await render(remote, { package: `oci://${reg.host}/packages/podinfo:6.7.1-p01` });
      assert.equal(fromImage.exitCode, 0, fromImage.stderr);
      assert.equal(fromImage.stderr, '');
      assert.equal(fromImage.stdout, fromFile.stdout);
      assert.match(fromImage.stdout, /# Source: manifests\/main\/podinfo\/templates\/deployment\.yaml/);
      assert.ok(fromImage.cacheable);
      // The tag's digest is what a cached result is re-checked against.
      const deps = fromImage.remote?.deps ?? [];
      assert.equal(deps.length, 1);
      assert.equal(deps[0]!.kind, 'oci-tag');
      assert.equal(await remote.stillValid(deps, fromImage.remote!.policy), true);
    } finally {
      await remote.close();
    }
  });

  test('by digest, and --out writes model.yaml first as from a file', async () => {
    const digest = (await client.resolve(parseReference(`${reg.host}/packages/podinfo:6.7.1-p01`))).digest;
    const remote = new RemoteInputs({ cacheDir });
    try {
      const o = await render(remote, { package: `oci://${reg.host}/packages/podinfo@${digest}`, out: 'out' });
      assert.equal(o.exitCode, 0, o.stderr);
      assert.deepEqual(o.remote?.deps ?? [], [], 'a digest never changes: no dependency to re-check');
      assert.ok(readFileSync(join(dir, 'out', 'model.yaml'), 'utf8').length > 0);
      assert.ok(statSync(join(dir, 'out', 'manifests/main/podinfo/templates/deployment.yaml')).isFile());
    } finally {
      await remote.close();
    }
  });

  test('a moved tag invalidates the result', async () => {
    const ref = `${reg.host}/packages/moving:v1`;
    await pushImage(ref, [{ mediaType: KUBOCD_PACKAGE_CONTENT, data: contentLayer(packageText, chart) }]);
    const remote = new RemoteInputs({ cacheDir, now: () => 0 });
    try {
      const o = await render(remote, { package: `oci://${ref}`, 'oci-tag-ttl': '0s' });
      assert.equal(o.exitCode, 0, o.stderr);
      await pushImage(ref, [
        { mediaType: KUBOCD_PACKAGE_CONTENT, data: contentLayer(packageText, chart) },
        // A second layer: another manifest, so the tag moves to another digest.
        { mediaType: 'application/vnd.example.extra', data: enc.encode('moved') },
      ]);
      assert.equal(await remote.stillValid(o.remote!.deps, o.remote!.policy), false);
    } finally {
      await remote.close();
    }
  });

  const failures: Array<{
    name: string;
    image?: () => Promise<void>;
    reference: string;
    message: RegExp;
  }> = [
    {
      name: 'a tag that does not exist',
      reference: 'packages/podinfo:nope',
      message: /--package oci:\/\/.*packages\/podinfo:nope: .*not found/,
    },
    {
      name: 'an image without a KuboCD content layer',
      image: async () => {
        await pushImage(
          `${reg.host}/packages/plain:v1`,
          [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', data: gzipDeterministic(writeTar([])) }],
          'application/vnd.oci.image.config.v1+json',
        );
      },
      reference: 'packages/plain:v1',
      message:
        /not a KuboCD package image: expected one layer of type application\/vnd\.kubotal\.kubocd\.package\.content\.v1\.tar\+gzip, found 0 \(layer types: application\/vnd\.oci\.image\.layer\.v1\.tar\+gzip\)/,
    },
    {
      name: 'content without status.yaml',
      image: async () => {
        await pushImage(`${reg.host}/packages/nostatus:v1`, [
          { mediaType: KUBOCD_PACKAGE_CONTENT, data: contentLayer(packageText, chart, ['status.yaml']) },
        ]);
      },
      reference: 'packages/nostatus:v1',
      message: /packages\/nostatus@sha256:[0-9a-f]{64}: package content has no status\.yaml/,
    },
    {
      name: 'content without the chart archive',
      image: async () => {
        await pushImage(`${reg.host}/packages/nochart:v1`, [
          { mediaType: KUBOCD_PACKAGE_CONTENT, data: contentLayer(packageText, chart, ['podinfo-6.7.1.tgz']) },
        ]);
      },
      reference: 'packages/nochart:v1',
      message: /module main: package content has no chart podinfo-6\.7\.1\.tgz/,
    },
    {
      name: 'a content layer that is not gzip',
      image: async () => {
        await pushImage(`${reg.host}/packages/notgz:v1`, [
          { mediaType: KUBOCD_PACKAGE_CONTENT, data: enc.encode('plain text') },
        ]);
      },
      reference: 'packages/notgz:v1',
      message: /package content is not valid gzip/,
    },
  ];

  for (const f of failures) {
    test(`render fails clearly on ${f.name}`, async () => {
      await f.image?.();
      const remote = new RemoteInputs({ cacheDir });
      try {
        const o = await render(remote, { package: `oci://${reg.host}/${f.reference}` });
        assert.equal(o.exitCode, 1);
        assert.equal(o.stdout, '');
        assert.match(o.stderr, /^podinfo-release\.yaml: /);
        assert.match(o.stderr, f.message);
      } finally {
        await remote.close();
      }
    });
  }
});

test('readKubocdPackageArchive: a module missing from status.yaml is named', () => {
  const text = readFileSync(join(fixtures, 'podinfo-package.yaml'), 'utf8');
  const layer = gzipDeterministic(
    writeTar([
      { path: 'original.yaml', data: enc.encode(text) },
      { path: 'status.yaml', data: enc.encode('apiVersion: v1alpha1\nchartByModule: {}\n') },
    ]),
  );
  assert.throws(() => readKubocdPackageArchive(layer, 'r.example/p@sha256:x'), {
    message: 'r.example/p@sha256:x: status.yaml names no chart for module main',
  });
});

test('an oci:// package with a malformed reference is refused before any fetch', () => {
  const o = runCommand(
    'kubocd-render',
    {
      requestId: 'r',
      args: ['podinfo-release.yaml'],
      flags: { package: 'oci://Bad Host/x:y' },
      cwd: fixtures,
      env: {},
      tty,
    },
    { shouldStop: () => false, testHooks: false },
  );
  assert.equal(o.exitCode, 1);
  assert.match(o.stderr, /^podinfo-release\.yaml: --package oci:\/\/Bad Host\/x:y: /);
  assert.equal(o.remote?.needs.length ?? 0, 0);
});
