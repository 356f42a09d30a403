// Issue 22 items 5-7 through the built CLI: the daemon's fast paths (a cached result copied to the
// CLI as raw bytes, evaluated imports reused after an edit) print the very bytes a cold render
// prints, are never stale after an edit, and `daemon status` reports each cache's bytes.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, rpc, Sandbox, waitFor } from './harness.js';

/** A library big enough for output past one 64 KiB frame, with text that is not ASCII. */
function library(value: string): string {
  return `{
  value:: '${value}',
  objects: { ['cm-%03d' % i]: {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: { name: 'cm-%03d' % i, annotations: { note: 'héllo ☃ 𝄞 ' + $.value } },
    data: { ['k%d' % j]: std.repeat('x', j) + $.value for j in std.range(0, 20) },
  } for i in std.range(0, 299) },
}
`;
}

describe('warm path (CLI)', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  let dir: string;
  before(() => {
    sb = new Sandbox();
    dir = join(sb.work, 'repo');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'objects.libsonnet'), library('one'));
    writeFileSync(join(dir, 'main.jsonnet'), "local lib = import 'lib/objects.libsonnet';\n{ objects: lib.objects }\n");
  });
  after(async () => {
    await sb.cleanup();
  });

  const results = async (): Promise<{ hits: number; misses: number }> =>
    (await rpc(sb.socket, 'daemon/status', {})).result.caches.find((c: { name: string }) => c.name === 'results');

  for (const format of ['yaml', 'json']) {
    it(`-o ${format}: miss, hit and --no-daemon print the same bytes; an edit is never served stale`, async () => {
      const show = async (...extra: string[]): Promise<string> => {
        const r = await sb.run(['show', '-o', format, ...extra, 'main.jsonnet'], { cwd: dir });
        assert.equal(r.code, 0, r.stderr);
        return r.stdout;
      };
      writeFileSync(join(dir, 'lib', 'objects.libsonnet'), library(`one-${format}`));
      const cold = await show('--no-daemon');
      assert.ok(Buffer.byteLength(cold) > 128 * 1024, 'output spans several frames');
      assert.equal(await show(), cold, 'first daemon render');
      const before = await results();
      assert.equal(await show(), cold, 'cached result');
      assert.equal((await results()).hits, before.hits + 1, 'the second show was a cache hit');

      writeFileSync(join(dir, 'lib', 'objects.libsonnet'), library(`two-${format}`));
      const edited = await show();
      assert.notEqual(edited, cold);
      assert.equal(edited, await show('--no-daemon'), 'after editing the library');
      // An edit that leaves the output as it is (a comment) re-renders to the same bytes.
      appendFileSync(join(dir, 'lib', 'objects.libsonnet'), '// a comment\n');
      assert.equal(await show(), edited);
    });
  }

  it('daemon status reports bytes per cache and the memory of the render hosts', async () => {
    const status = await waitFor(
      'the worker to report its caches after its idle collection',
      async () => {
        const st = (await rpc(sb.socket, 'daemon/status', {})).result;
        const reuse = st.caches.find((c: { name: string }) => c.name === 'module-reuse');
        return reuse && reuse.bytes > 0 ? st : undefined;
      },
      30_000,
    );
    const byName = new Map(status.caches.map((c: { name: string }) => [c.name, c]));
    for (const name of ['results', 'parsed-modules', 'module-reuse', 'files']) {
      const c = byName.get(name) as { entries: number; bytes: number } | undefined;
      assert.ok(c, `cache ${name} listed`);
      assert.ok(c.entries > 0 && c.bytes > 0, `cache ${name}: ${JSON.stringify(c)}`);
    }
    // One project rendered one request at a time needs one render host: the others are not started.
    const started = status.workers.filter((w: { pid?: number }) => w.pid !== undefined);
    assert.equal(started.length, 1, JSON.stringify(status.workers));
    assert.ok(started[0].rssBytes > 0 && started[0].pssBytes > 0);
    assert.ok(status.totalPssBytes > 0);
    const text = await sb.run(['daemon', 'status']);
    assert.match(text.stdout, /^memory: +RSS [\d.]+ MiB, heap [\d.]+ MiB; with the render hosts [\d.]+ MiB \(PSS\)$/m);
    for (const name of ['results', 'parsed-modules', 'module-reuse', 'files'])
      assert.match(text.stdout, new RegExp(`^cache ${name}: +\\d+ entries, [\\d.]+ MiB`, 'm'));
  });
});
