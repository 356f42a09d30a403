/**
 * `kubecfg pack` through the built CLI, with --no-daemon and through the
 * daemon, against a real registry: the push answers with the digest, both
 * modes push the same digest, `--output` writes the body archive whose digest
 * is the pushed layer's, and without the feature the command fails with
 * kubecfg's message and exit 1.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { RegistryClient } from '../../oci/client.js';
import { sha256Digest } from '../../oci/digest.js';
import { parseReference } from '../../oci/reference.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';

const skip = !BUILT ? 'run npm run build first' : registrySkipReason();

describe('kubecfg pack through the CLI', { skip: skip ?? false, timeout: 120_000 }, () => {
  let sb: Sandbox;
  let registry: TestRegistry;
  let client: RegistryClient;
  before(async () => {
    sb = new Sandbox();
    registry = await startTestRegistry();
    client = new RegistryClient({ insecureRegistries: [registry.host] });
    mkdirSync(join(sb.work, 'lib'));
    writeFileSync(join(sb.work, 'main.jsonnet'), "local l = import 'lib/l.libsonnet';\n{ cm: l }\n");
    writeFileSync(
      join(sb.work, 'lib', 'l.libsonnet'),
      "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }\n",
    );
  });
  after(async () => {
    await client?.close();
    await registry?.stop();
    await sb?.cleanup();
  });

  test('no-daemon and daemon push the same digest; --output holds the pushed body', async () => {
    const digests: string[] = [];
    for (const mode of [['--no-daemon'], []]) {
      const ref = `${registry.host}/cli/app:${mode.length ? 'oneshot' : 'daemon'}`;
      const r = await sb.run([...mode, '--features=pack', 'pack', '--insecure-registry', ref, 'main.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      const m = /Pushed .* \((sha256:[0-9a-f]{64})\)/.exec(r.stderr);
      assert.ok(m, r.stderr);
      assert.equal((await client.resolve(parseReference(ref))).digest, m[1]);
      digests.push(m[1]!);
    }
    assert.equal(digests[0], digests[1]);
    const out = await sb.run([
      '--features=pack',
      'pack',
      '--output',
      'b.tgz',
      `${registry.host}/cli/app:x`,
      'main.jsonnet',
    ]);
    assert.equal(out.code, 0, out.stderr);
    const fetched = await client.getManifest(parseReference(`${registry.host}/cli/app:daemon`));
    assert.ok(fetched.manifest.kind === 'manifest');
    assert.equal(sha256Digest(readFileSync(join(sb.work, 'b.tgz'))), fetched.manifest.layers[0]!.digest);
  });

  test('without the pack feature: an error naming the feature, exit 1', async () => {
    const r = await sb.run(['--no-daemon', 'pack', `${registry.host}/cli/app:v`, 'main.jsonnet']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /pack is an alpha feature; turn it on with --features=pack/);
  });
});
