/**
 * `bench/oci/run`: registry requests (counted by the client's request hook)
 * and time for `show` of a file importing a bundle, first and second show,
 * by tag and by digest, through the daemon's real fetch rounds (RemoteInputs
 * + runCommand, as a worker runs them) against Debian's docker-registry on
 * loopback. There is no kubecfg binary here, so the peer is a client with no
 * cache: it pulls the bundle on every show, as kubecfg does per process.
 * Prints the ratio peer/ours. Skips (exit 0) when the registry is absent.
 * No assertions on time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pullBundle, pushBundle } from '../../oci/bundle.js';
import { RegistryClient } from '../../oci/client.js';
import { parseReference } from '../../oci/reference.js';
import type { CommandParams } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import { RemoteInputs } from '../../server/remote-inputs/remote-fetcher.js';
import { registrySkipReason, startTestRegistry } from '../../test/oci/registry-fixture.js';
import { fmtMs, printTable } from '../lib/measure.js';

const skip = registrySkipReason();
if (skip) {
  console.log(`skipped: ${skip}`);
  process.exit(0);
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const TTY = { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null };

const reg = await startTestRegistry();
const work = mkdtempSync(join(tmpdir(), 'kubecfg-bench-oci-'));
try {
  const pusher = new RegistryClient({ insecureRegistries: [reg.host] });
  const files = new Map<string, Uint8Array>([['app.jsonnet', enc("import 'lib/all.libsonnet'")]]);
  const parts: string[] = [];
  for (let i = 0; i < 50; i++) {
    files.set(`lib/part${i}.libsonnet`, enc(`{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-${i}' } }`));
    parts.push(`import 'part${i}.libsonnet'`);
  }
  files.set('lib/all.libsonnet', enc(`[${parts.join(', ')}]`));
  const { digest } = await pushBundle(pusher, parseReference(`${reg.host}/bench/app:v1`), {
    files,
    entrypoint: 'app.jsonnet',
    kubecfgVersion: 'bench',
    features: [],
  });
  await pusher.close();
  const byTag = `oci://${reg.host}/bench/app:v1`;
  const byDigest = `oci://${reg.host}/bench/app@${digest}`;
  writeFileSync(join(work, 'tag.jsonnet'), `import '${byTag}/lib/all.libsonnet'`);
  writeFileSync(join(work, 'digest.jsonnet'), `import '${byDigest}/lib/all.libsonnet'`);

  const rows: string[][] = [['show', 'ours: requests', 'ours: time', 'peer: requests', 'peer: time', 'peer/ours']];
  for (const [label, input, ref] of [
    ['by tag', 'tag.jsonnet', `${reg.host}/bench/app:v1`],
    ['by digest', 'digest.jsonnet', `${reg.host}/bench/app@${digest}`],
  ] as const) {
    let ours = 0;
    const remote = new RemoteInputs({
      cacheDir: join(work, `cache-${label.replace(' ', '-')}`),
      onRegistryRequest: () => void ours++,
    });
    let peer = 0;
    const peerClient = new RegistryClient({ insecureRegistries: [reg.host], onRequest: () => void peer++ });
    for (const which of ['first', 'second']) {
      ours = 0;
      peer = 0;
      const params = {
        requestId: 'b',
        args: [input],
        flags: { 'insecure-registry': [reg.host] },
        cwd: work,
        env: {},
        tty: TTY,
      } as unknown as CommandParams;
      const t0 = performance.now();
      const outcome = await remote.run(async (snapshot) =>
        runCommand('show', params, { shouldStop: () => false, testHooks: false, remote: snapshot }),
      );
      const oursMs = performance.now() - t0;
      if (outcome.exitCode !== 0) throw new Error(outcome.stderr);
      const t1 = performance.now();
      await pullBundle(peerClient, parseReference(ref));
      const peerMs = performance.now() - t1;
      rows.push([
        `${which} show ${label}`,
        String(ours),
        fmtMs(oursMs),
        String(peer),
        fmtMs(peerMs),
        ours === 0 ? `${peer}/0 requests` : `${(peer / ours).toFixed(1)}x requests`,
      ]);
    }
    await remote.close();
    await peerClient.close();
  }
  printTable(rows);
} finally {
  await reg.stop();
  rmSync(work, { recursive: true, force: true });
}
