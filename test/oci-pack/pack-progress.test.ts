/**
 * Progress of `kubecfg pack` on stderr (issue 23): quiet when stderr is not a
 * terminal, printed with `--progress` (here, on a pipe): the blobs pushed,
 * which were already in the registry, the manifest, and `--output`'s file.
 * Built CLI, real daemon, real registry.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';

const skip = !BUILT ? 'run npm run build first' : registrySkipReason();

describe('kubecfg pack --progress', { skip: skip ?? false, timeout: 120_000 }, () => {
  let sb: Sandbox;
  let registry: TestRegistry;
  before(async () => {
    sb = new Sandbox();
    registry = await startTestRegistry();
    writeFileSync(
      join(sb.work, 'main.jsonnet'),
      "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } } }\n",
    );
  });
  after(async () => {
    await registry?.stop();
    await sb?.cleanup();
  });

  test('progress lines only when asked', async () => {
    const pack = (flags: string[], tag: string) =>
      sb.run([
        '--features=pack',
        ...flags,
        'pack',
        '--insecure-registry',
        `${registry.host}/p/app:${tag}`,
        'main.jsonnet',
      ]);
    const quiet = await pack([], 'quiet');
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /kubecfg: pack:/);

    const shown = await pack(['--progress'], 'shown');
    assert.equal(shown.code, 0, shown.stderr);
    const lines = shown.stderr.trimEnd().split('\n');
    assert.match(
      lines[0]!,
      new RegExp(`^kubecfg: pack: pushing 2 blobs \\(\\d+(\\.\\d)? (B|KiB)\\) to ${registry.host}/p/app$`),
    );
    // The same content as the quiet push: both blobs are in the repository already.
    assert.match(lines[1]!, /^kubecfg: pack: \[1\/2\] sha256:[0-9a-f]{12} \S+ (B|KiB) already in the registry$/);
    assert.match(lines[2]!, /^kubecfg: pack: \[2\/2\] sha256:[0-9a-f]{12} \S+ (B|KiB) already in the registry$/);
    assert.equal(lines[3], 'kubecfg: pack: manifest pushed');
    assert.match(lines[4]!, /^Pushed .*p\/app:shown \(sha256:[0-9a-f]{64}\)$/);

    writeFileSync(
      join(sb.work, 'main.jsonnet'),
      "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y' } } }\n",
    );
    const fresh = await pack(['--progress'], 'fresh');
    assert.match(fresh.stderr, /^kubecfg: pack: \[1\/2\] sha256:[0-9a-f]{12} \S+ (B|KiB) uploaded$/m);

    const out = await sb.run([
      '--features=pack',
      '--progress',
      'pack',
      '--output',
      'b.tgz',
      'r.example/x:1',
      'main.jsonnet',
    ]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /^kubecfg: pack: wrote \/\S+\/b\.tgz \(\d+(\.\d)? (B|KiB)\)$/m);
  });
});
