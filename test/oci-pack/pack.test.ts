/**
 * `kubecfg pack` against a real CNCF distribution registry (Debian's
 * docker-registry), through the same two halves the daemon and --no-daemon
 * run (planPack in the render process, finishPack with the network): the
 * import closure (import, importstr, importbin, -J, yakl:), the manifest's
 * media types and annotations as pulled back, a digest stable across two
 * packs, `--output` bytes identical to the pushed body layer, and the
 * refusals (feature off, file outside the root, remote import, missing
 * import located at its line).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RegistryClient } from '../../oci/client.js';
import { pullBundle } from '../../oci/bundle.js';
import { sha256Digest } from '../../oci/digest.js';
import {
  KUBECFG_BUNDLE_BODY,
  KUBECFG_BUNDLE_CONFIG,
  KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE,
  KUBECFG_BUNDLE_DOCS,
} from '../../oci/media-types.js';
import { parseReference } from '../../oci/reference.js';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runPackCommand } from '../../server/handlers/pack.js';
import { runCommand } from '../../server/commands/run.js';
import type { Executor } from '../../server/command-runner.js';
import { gunzipCapped, gzipDeterministic } from '../../oci/gzip.js';
import { readTar } from '../../oci/tar-reader.js';
import { writeTar } from '../../oci/tar-writer.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';
import { NO_TTY } from '../support/command-params.js';

const tty = NO_TTY;

const executor: Executor = {
  execute: async (c, p) => runCommand(c, p, { shouldStop: () => false, testHooks: false }),
};

interface Run {
  exitCode: number;
  stdout: string;
  stderr: string;
}

async function pack(cwd: string, args: string[], flags: Record<string, FlagValue> = {}): Promise<Run> {
  const params: CommandParams = {
    requestId: 'r',
    args,
    flags: { features: ['pack'], ...flags },
    cwd,
    env: { HOME: cwd },
    tty,
  };
  let stdout = '';
  let stderr = '';
  const sink = {
    write: (s: 'stdout' | 'stderr', d: string) => void (s === 'stdout' ? (stdout += d) : (stderr += d)),
  };
  const r = await runPackCommand(executor, params, sink, new AbortController().signal);
  return { exitCode: r.exitCode, stdout, stderr };
}

function writeTree(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), data);
  }
}

/** The sources every test packs: `work` is the project root (it holds a .git file). */
function makeWork(): string {
  const work = mkdtempSync(join(tmpdir(), 'kcfg-pack-'));
  writeTree(work, {
    'app/main.jsonnet':
      "local lib = import 'lib/k8s.libsonnet';\n" +
      "local v = import 'vendored.libsonnet';\n" +
      "{ _kubecfg_pack_metadata:: { team: 'blue' }, cm: lib.cm(importstr 'files/data.txt', std.length(importbin 'files/blob.bin')) + v }\n",
    'app/lib/k8s.libsonnet':
      "local kubecfg = import 'kubecfg.libsonnet';\n" +
      "{ cm(d, n):: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { d: d, n: std.toString(n) } } }\n",
    'app/files/data.txt': 'hello\n',
    'app/files/blob.bin': new Uint8Array([0, 1, 2, 255]),
    'vendor/vendored.libsonnet': "{ metadata+: { labels: { vendored: 'yes' } } }\n",
    'yk/entry.jsonnet': "import 'yakl:conf.yakl'\n",
    'yk/conf.yakl': 'name: demo\n',
    'bin/entry.jsonnet': "{ n: std.length(import 'binary://chart.tgz') }\n",
    'bin/chart.tgz': new Uint8Array([31, 139, 8, 0]),
    'bad/remote.jsonnet': "{\n  a: import 'oci://example.com/lib:v1/x.libsonnet',\n}\n",
    'bad/missing.jsonnet': "{\n  a: import 'nope.libsonnet',\n}\n",
  });
  writeFileSync(join(work, '.git'), ''); // marks `work` as the project root (a file is enough for the probe)
  return work;
}

const skip = registrySkipReason();

describe('kubecfg pack against a real registry', { skip: skip ?? false, timeout: 60_000 }, () => {
  let registry: TestRegistry;
  let work: string;
  let client: RegistryClient;

  before(async () => {
    registry = await startTestRegistry();
    client = new RegistryClient({ insecureRegistries: [registry.host] });
    work = makeWork();
  });

  after(async () => {
    await client?.close();
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('pushes the import closure with kubecfg media types, config and annotations', async () => {
    const ref = `${registry.host}/apps/demo:v1`;
    const r = await pack(work, [ref, 'app/main.jsonnet'], {
      jpath: ['vendor'],
      'insecure-registry': true,
      annotation: ['org.example/owner=team=blue', 'x=y'],
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /^Pushed .*apps\/demo:v1 \(sha256:[0-9a-f]{64}\)\n$/);
    const bundle = await pullBundle(client, parseReference(ref));
    assert.equal(bundle.manifest.config.mediaType, KUBECFG_BUNDLE_CONFIG);
    assert.equal(bundle.manifest.config.artifactType, KUBECFG_BUNDLE_CONFIG_ARTIFACT_TYPE);
    assert.deepEqual(
      bundle.manifest.layers.map((l) => l.mediaType),
      [KUBECFG_BUNDLE_BODY],
    );
    assert.deepEqual([...bundle.files.keys()].sort(), [
      'app/files/blob.bin',
      'app/files/data.txt',
      'app/lib/k8s.libsonnet',
      'app/main.jsonnet',
      'vendor/vendored.libsonnet',
    ]);
    assert.equal(bundle.config.entrypoint, 'app/main.jsonnet');
    assert.deepEqual(bundle.config.metadata?.['team'], 'blue');
    assert.equal(bundle.features.length, 0);
    const ann = bundle.manifest.annotations ?? {};
    assert.equal(ann['org.example/owner'], 'team=blue');
    assert.equal(ann['x'], 'y');
    assert.equal(ann['org.opencontainers.image.source'], 'kubecfg pack');
    assert.equal(ann['org.opencontainers.image.revision'], 'unknown');
  });

  test('two packs of the same sources give the same digest; --output writes the pushed body', async () => {
    const ref = parseReference(`${registry.host}/apps/stable:v1`);
    const args = [`${registry.host}/apps/stable:v1`, 'app/main.jsonnet'];
    const flags = { jpath: ['vendor'], 'insecure-registry': true };
    assert.equal((await pack(work, args, flags)).exitCode, 0);
    const first = await client.resolve(ref);
    assert.equal((await pack(work, args, flags)).exitCode, 0);
    const second = await client.resolve(ref);
    assert.equal(first.digest, second.digest);
    const out = join(work, 'bundle.tar.gz');
    const r = await pack(work, args, { ...flags, output: 'bundle.tar.gz' });
    assert.equal(r.exitCode, 0, r.stderr);
    const bundle = await pullBundle(client, ref);
    const body = bundle.manifest.layers[0]!;
    assert.equal(sha256Digest(readFileSync(out)), body.digest);
  });

  test('YAKL sources are shipped as source and the bundle records the yakl feature', async () => {
    const ref = `${registry.host}/apps/yakl:v1`;
    const off = await pack(work, [ref, 'yk/entry.jsonnet'], { 'insecure-registry': true });
    assert.equal(off.exitCode, 1);
    assert.match(off.stderr, /yakl is an alpha feature/);
    const r = await pack(work, [ref, 'yk/entry.jsonnet'], { 'insecure-registry': true, features: ['pack', 'yakl'] });
    assert.equal(r.exitCode, 0, r.stderr);
    const bundle = await pullBundle(client, parseReference(ref));
    assert.deepEqual([...bundle.files.keys()].sort(), ['conf.yakl', 'entry.jsonnet']);
    assert.equal(new TextDecoder().decode(bundle.files.get('conf.yakl')), 'name: demo\n');
    assert.deepEqual(bundle.features, ['yakl']);
    const direct = `${registry.host}/apps/yakl-entry:v1`;
    const entry = await pack(work, [direct, 'yk/conf.yakl'], { 'insecure-registry': true, features: ['pack', 'yakl'] });
    assert.equal(entry.exitCode, 0, entry.stderr);
    const yaklBundle = await pullBundle(client, parseReference(direct));
    assert.equal(yaklBundle.config.entrypoint, 'conf.yakl');
    assert.deepEqual(yaklBundle.features, ['yakl']);
  });

  test('binary:// targets are shipped as data and the bundle records the binary-import feature', async () => {
    const ref = `${registry.host}/apps/binary:v1`;
    const off = await pack(work, [ref, 'bin/entry.jsonnet'], { 'insecure-registry': true });
    assert.equal(off.exitCode, 1);
    assert.match(off.stderr, /binary-import is an alpha feature/);
    const r = await pack(work, [ref, 'bin/entry.jsonnet'], {
      'insecure-registry': true,
      features: ['pack', 'binary-import'],
    });
    assert.equal(r.exitCode, 0, r.stderr);
    const bundle = await pullBundle(client, parseReference(ref));
    assert.deepEqual([...bundle.files.keys()].sort(), ['chart.tgz', 'entry.jsonnet']);
    assert.deepEqual([...bundle.files.get('chart.tgz')!], [31, 139, 8, 0]);
    assert.deepEqual(bundle.features, ['binary-import']);
  });

  test('--docs-tar-file adds the docs layer', async () => {
    const docs = gzipDeterministic(writeTar([{ path: 'README.md', data: new TextEncoder().encode('# docs\n') }]));
    writeFileSync(join(work, 'docs.tar.gz'), docs);
    const ref = `${registry.host}/apps/docs:v1`;
    const r = await pack(work, [ref, 'app/main.jsonnet'], {
      jpath: ['vendor'],
      'insecure-registry': true,
      'docs-tar-file': 'docs.tar.gz',
    });
    assert.equal(r.exitCode, 0, r.stderr);
    const bundle = await pullBundle(client, parseReference(ref));
    assert.deepEqual(
      bundle.manifest.layers.map((l) => [l.mediaType, l.digest]),
      [
        [KUBECFG_BUNDLE_BODY, bundle.manifest.layers[0]!.digest],
        [KUBECFG_BUNDLE_DOCS, sha256Digest(docs)],
      ],
    );
  });
});

describe('kubecfg pack refusals and --output (no registry needed)', () => {
  let work: string;
  before(() => {
    work = makeWork();
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  const refusals: Array<{ name: string; args: string[]; flags?: Record<string, FlagValue>; message: RegExp }> = [
    {
      name: 'the pack feature off',
      args: ['h/r:v', 'app/main.jsonnet'],
      flags: { features: [] },
      message: /pack is an alpha feature; turn it on with --features=pack/,
    },
    { name: 'a bad reference', args: ['Bad/Repo:v', 'app/main.jsonnet'], message: /Bad\/Repo/ },
    {
      name: 'a file outside the root',
      args: ['h/r:v', 'app/main.jsonnet'],
      flags: { features: ['pack'], jpath: ['vendor'], root: 'app' },
      message: /app\/main\.jsonnet:2:11: .*vendor\/vendored\.libsonnet is outside the bundle root .*\/app:/,
    },
    {
      name: 'a remote import',
      args: ['h/r:v', 'bad/remote.jsonnet'],
      message:
        /bad\/remote\.jsonnet:2:6: import "oci:\/\/example\.com\/lib:v1\/x\.libsonnet": a bundle must be self-contained/,
    },
    {
      name: 'a missing import',
      args: ['h/r:v', 'bad/missing.jsonnet'],
      message: /bad\/missing\.jsonnet:2:6: couldn't open import "nope\.libsonnet"/,
    },
    { name: 'one argument', args: ['h/r:v'], message: /accepts 2 arg\(s\), received 1/ },
  ];
  for (const c of refusals) {
    test(`refuses ${c.name}`, async () => {
      const r = await pack(work, c.args, c.flags ?? {});
      assert.equal(r.exitCode, 1);
      assert.match(r.stderr, c.message);
      assert.equal(r.stdout, '');
    });
  }

  test('without --root the bundle spans the common directory of the entry and its imports', async () => {
    // kubecfg's shortNames/findCommonPathPrefix: no .git here, and the entry imports from a sibling folder.
    const loose = mkdtempSync(join(tmpdir(), 'kcfg-pack-loose-'));
    try {
      writeTree(loose, {
        'p/app/main.jsonnet': "import '../lib/x.libsonnet'\n",
        'p/lib/x.libsonnet': "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }\n",
      });
      const r = await pack(join(loose, 'p', 'app'), ['h/r:v', 'main.jsonnet'], { output: 'out.tgz' });
      assert.equal(r.exitCode, 0, r.stderr);
      const tar = await gunzipCapped(readFileSync(join(loose, 'p', 'app', 'out.tgz')), 1 << 20, 'out.tgz');
      assert.deepEqual([...readTar(tar, 'out.tgz').keys()].sort(), ['app/main.jsonnet', 'lib/x.libsonnet']);
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });

  test('--output writes the same archive twice, and never touches the network', async () => {
    const first = await pack(work, ['unreachable.invalid/r:v', 'app/main.jsonnet'], {
      jpath: ['vendor'],
      output: 'a.tgz',
    });
    assert.equal(first.exitCode, 0, first.stderr);
    const second = await pack(work, ['unreachable.invalid/r:v', 'app/main.jsonnet'], {
      jpath: ['vendor'],
      output: 'b.tgz',
    });
    assert.equal(second.exitCode, 0, second.stderr);
    const a = readFileSync(join(work, 'a.tgz'));
    assert.deepEqual([a[0], a[1]], [0x1f, 0x8b]);
    assert.equal(sha256Digest(a), sha256Digest(readFileSync(join(work, 'b.tgz'))));
  });
});
