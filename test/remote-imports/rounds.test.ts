// Remote inputs in process (no build needed): the real runCommand with the real RemoteInputs
// fetch rounds, against a local HTTP server (127.0.0.1 allow-listed explicitly) and, when
// Debian's docker-registry is installed, a real registry on loopback. Covers http imports, -U,
// data:, URL inputs, the SSRF refusal, remote code never reading local files, cache re-checks
// (max-age, a changed body, a moved tag), oci:// imports (tag, digest, entrypoint, relative
// imports inside the bundle, undeclared features) and resolveImage in registry mode.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HttpCache } from '../../cache/http-cache.js';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { RegistryClient } from '../../oci/client.js';
import { pushBundle, type PackInput } from '../../oci/bundle.js';
import { parseReference } from '../../oci/reference.js';
import { runCommand } from '../../server/commands/run.js';
import { RemoteInputs } from '../../server/remote-inputs/remote-fetcher.js';
import type { CommandName, CommandOutcome } from '../../server/worker/messages.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';

const TTY = { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: true, forceColor: null };

let work: string;
let cacheDir: string;
let server: Server;
let base: string;
const served: string[] = [];
const files: Record<string, { body: string; headers?: Record<string, string> }> = {};

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'kubecfg-remote-'));
  cacheDir = mkdtempSync(join(tmpdir(), 'kubecfg-remote-cache-'));
  server = createServer((req, res) => {
    served.push(req.url ?? '');
    const f = files[req.url ?? ''];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, f.headers ?? {}).end(f.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

function write(rel: string, text: string): void {
  mkdirSync(join(work, rel, '..'), { recursive: true });
  writeFileSync(join(work, rel), text);
}

function params(args: string[], flags: Record<string, FlagValue>): CommandParams {
  return { requestId: 'r', args, flags, cwd: work, env: {}, tty: TTY } as CommandParams;
}

async function show(
  remote: RemoteInputs,
  args: string[],
  flags: Record<string, FlagValue> = {},
  command: CommandName = 'show',
): Promise<CommandOutcome> {
  return remote.run(async (snapshot) =>
    runCommand(command, params(args, flags), { shouldStop: () => false, testHooks: false, remote: snapshot }),
  );
}

const allow = { 'allow-import-host': ['127.0.0.1'] };

function remoteRun(args: string[], cwd: string): Promise<CommandOutcome> {
  const p = { ...params(args, { features: ['eval'] }), cwd };
  return new RemoteInputs({ cacheDir }).run(async (snapshot) =>
    runCommand('eval', p, { shouldStop: () => false, testHooks: false, remote: snapshot }),
  );
}
const cm = (name: string): string => `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ${name} } }`;

describe('http(s) imports', () => {
  test('an import, its relative imports and importstr come from the server in one prefetching round', async () => {
    files['/lib/main.libsonnet'] = { body: "{ name: (import 'names.libsonnet').n, text: importstr '../data.txt' }" };
    files['/lib/names.libsonnet'] = { body: "{ n: 'remote' }" };
    files['/data.txt'] = { body: 'hello' };
    write('app.jsonnet', `local l = import '${base}/lib/main.libsonnet'; ${cm('l.name')} + { data: { t: l.text } }`);
    served.length = 0;
    const r = await show(new RemoteInputs({ cacheDir }), ['app.jsonnet'], allow);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: remote/);
    assert.match(r.stdout, /t: hello/);
    assert.deepEqual([...served].sort(), ['/data.txt', '/lib/main.libsonnet', '/lib/names.libsonnet']);
    assert.deepEqual(r.remote?.deps.map((d) => d.kind === 'http' && d.url.replace(base, '')).sort(), [
      '/data.txt',
      '/lib/main.libsonnet',
      '/lib/names.libsonnet',
    ]);
  });

  test('without the allow-list, loopback is refused (hazard 24)', async () => {
    write('ssrf.jsonnet', `import '${base}/lib/names.libsonnet'`);
    const r = await show(new RemoteInputs({ cacheDir }), ['ssrf.jsonnet']);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /refused: 127\.0\.0\.1 is a loopback address; .*--allow-import-host 127\.0\.0\.1/);
  });

  test('-U search URLs come after the local directory and -J', async () => {
    files['/jurl/only-remote.libsonnet'] = { body: "'from -U'" };
    write('jdir/both.libsonnet', "'from -J'");
    files['/jurl/both.libsonnet'] = { body: "'from -U (shadowed)'" };
    write('u.jsonnet', `${cm("(import 'only-remote.libsonnet') + '|' + (import 'both.libsonnet')")}`);
    const r = await show(new RemoteInputs({ cacheDir }), ['u.jsonnet'], {
      ...allow,
      jurl: [`${base}/jurl`],
      jpath: ['jdir'],
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: from -U\|from -J/);
  });

  test('a remote file never reads local files, even on the -J path', async () => {
    files['/leaky.libsonnet'] = { body: "import 'local-only.libsonnet'" };
    write('jdir/local-only.libsonnet', "'local secret'");
    write('leak.jsonnet', `import '${base}/leaky.libsonnet'`);
    const r = await show(new RemoteInputs({ cacheDir }), ['leak.jsonnet'], { ...allow, jpath: ['jdir'] });
    assert.equal(r.exitCode, 1);
    assert.match(
      r.stderr,
      /no match locally or in library search paths\. Tried: http:\/\/127\.0\.0\.1:\d+\/local-only\.libsonnet/,
    );
    assert.doesNotMatch(r.stderr, /local secret/);
  });

  test('remote code may name another remote host only if allowed (transitive rule)', async () => {
    const other = base.replace('127.0.0.1', 'localhost');
    files['/hop.libsonnet'] = { body: `import '${other}/lib/names.libsonnet'` };
    write('hop.jsonnet', `${cm(`(import '${base}/hop.libsonnet').n`)}`);
    const refused = await show(new RemoteInputs({ cacheDir }), ['hop.jsonnet'], allow);
    assert.equal(refused.exitCode, 1);
    assert.match(
      refused.stderr,
      /was fetched from 127\.0\.0\.1:\d+ and may import from another host only if allowed with --allow-import-host localhost/,
    );
    const allowed = await show(new RemoteInputs({ cacheDir }), ['hop.jsonnet'], {
      'allow-import-host': ['127.0.0.1', 'localhost'],
    });
    assert.equal(allowed.exitCode, 0, allowed.stderr);
    assert.match(allowed.stdout, /name: remote/);
  });

  test('data: imports need no fetch', async () => {
    write('data.jsonnet', `${cm("(import 'data:;base64,J2Zyb20tZGF0YSc=')")}`);
    const r = await show(new RemoteInputs({ cacheDir }), ['data.jsonnet']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: from-data/);
    assert.equal(r.remote, undefined);
  });

  test('a URL as the input file', async () => {
    files['/app.jsonnet'] = { body: `${cm("(import 'lib/names.libsonnet').n")}` };
    const r = await show(new RemoteInputs({ cacheDir }), [`${base}/app.jsonnet`], allow);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: remote/);
  });

  test('yakl:http://... compiles the fetched .yakl file (feature yakl)', async () => {
    files['/r.yakl'] = { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${"yakl-" + "remote"}\n' };
    write('y.jsonnet', `import 'yakl:${base}/r.yakl'`);
    const r = await show(new RemoteInputs({ cacheDir }), ['y.jsonnet'], { ...allow, features: ['yakl'] });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: yakl-remote/);
  });

  test('eval of a URL input', async () => {
    const r = await show(
      new RemoteInputs({ cacheDir }),
      [`${base}/lib/names.libsonnet`],
      { ...allow, features: ['eval'] },
      'eval',
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, '"n": remote\n\n');
  });

  test('eval -e of a URL input: $ is the remote file', async () => {
    const r = await show(
      new RemoteInputs({ cacheDir }),
      [`${base}/lib/names.libsonnet`],
      { ...allow, features: ['eval'], expr: '$.n + "!"' },
      'eval',
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, 'remote!\n\n');
  });

  test('a remote .yaml manifest is an input of the cluster commands too (their render half)', async () => {
    files['/manifests/cm.yaml'] = { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-url\n' };
    const r = await show(new RemoteInputs({ cacheDir }), [`${base}/manifests/cm.yaml`], allow, 'validate');
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-url' } }]);
  });

  test('the rc setting root confines like --root', async () => {
    write('rcroot/.kubecfgrc.jsonnet', "{ flags+: { root: 'app' } }");
    write('rcroot/app/a.jsonnet', "{ x: importstr '../.kubecfgrc.jsonnet' }");
    const r = await remoteRun(['app/a.jsonnet'], join(work, 'rcroot'));
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /couldn't open import "\.\.\/\.kubecfgrc\.jsonnet": outside the root/);
  });

  test('a 500 is reported with its status, not its body', async () => {
    write('missing.jsonnet', `import '${base}/nope.libsonnet'`);
    const r = await show(new RemoteInputs({ cacheDir }), ['missing.jsonnet'], allow);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /couldn't open import "http:\/\/127\.0\.0\.1:\d+\/nope\.libsonnet": not found \(404\)/);
  });

  test('cached results: valid within max-age without a request, invalid once the body changed', async () => {
    let now = 1_000_000;
    const remote = new RemoteInputs({ cacheDir, httpCache: new HttpCache({ now: () => now }) });
    files['/fresh.libsonnet'] = { body: "'v1'", headers: { 'cache-control': 'max-age=60', etag: '"1"' } };
    write('fresh.jsonnet', `${cm(`import '${base}/fresh.libsonnet'`)}`);
    const r = await show(remote, ['fresh.jsonnet'], allow);
    assert.equal(r.exitCode, 0, r.stderr);
    const { deps, policy } = r.remote!;
    served.length = 0;
    assert.equal(await remote.stillValid(deps, policy), true);
    assert.deepEqual(served, [], 'no request within max-age');
    now += 120_000;
    files['/fresh.libsonnet'] = { body: "'v2'", headers: { 'cache-control': 'max-age=60', etag: '"2"' } };
    assert.equal(await remote.stillValid(deps, policy), false);
    assert.deepEqual(served, ['/fresh.libsonnet']);
  });
});

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const bundle = (label: string, features: string[] = []): PackInput => ({
  files: new Map([
    ['app.jsonnet', enc("local k = import 'lib/k8s.libsonnet'; k.ns('bundled')")],
    [
      'lib/k8s.libsonnet',
      enc(`{ ns(n):: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n, labels: { v: '${label}' } } } }`),
    ],
  ]),
  entrypoint: 'app.jsonnet',
  kubecfgVersion: 'v0.40.0-ts',
  features,
});

describe('oci:// imports and resolveImage against a real registry', { skip: registrySkipReason() ?? false }, () => {
  let reg: TestRegistry;
  let client: RegistryClient;
  let digest: string;
  const registryRequests: string[] = [];
  let now = 5_000_000;
  let remote: RemoteInputs;
  before(async () => {
    reg = await startTestRegistry();
    client = new RegistryClient({ insecureRegistries: [reg.host] });
    digest = (await pushBundle(client, parseReference(`${reg.host}/libs/app:v1`), bundle('1'))).digest;
    await pushBundle(client, parseReference(`${reg.host}/libs/gated:v1`), bundle('g', ['yakl', 'eval']));
    remote = new RemoteInputs({
      cacheDir,
      now: () => now,
      onRegistryRequest: (m, u) => void registryRequests.push(`${m} ${new URL(u).pathname}`),
    });
  });
  after(async () => {
    await remote?.close();
    await client?.close();
    await reg?.stop();
  });
  const oci = () => ({ 'insecure-registry': [reg.host] });

  test('a file of a bundle by tag, with its relative imports inside the bundle', async () => {
    write('oci.jsonnet', `(import 'oci://${reg.host}/libs/app:v1/lib/k8s.libsonnet').ns('x')`);
    const r = await show(remote, ['oci.jsonnet'], oci());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: x/);
    assert.ok(registryRequests.length > 0);
  });

  test('show oci://host/repo:tag renders the entrypoint; a second show within the TTL asks the registry nothing', async () => {
    registryRequests.length = 0;
    const r = await show(remote, [`oci://${reg.host}/libs/app:v1`], oci());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: bundled/);
    assert.deepEqual(registryRequests, [], 'tag answer and bundle reused');
    const dep = r.remote!.deps[0]!;
    assert.deepEqual(dep, {
      kind: 'oci-tag',
      reference: `${reg.host}/libs/app:v1`,
      pinned: `${reg.host}/libs/app@${digest}`,
    });
    assert.equal(await remote.stillValid(r.remote!.deps, r.remote!.policy), true);
    assert.deepEqual(registryRequests, []);
  });

  test('after the TTL a tag costs one HEAD; a moved tag invalidates', async () => {
    now += 10 * 60 * 1000;
    registryRequests.length = 0;
    const r = await show(remote, [`oci://${reg.host}/libs/app:v1`], oci());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(registryRequests, ['HEAD /v2/libs/app/manifests/v1']);
    await pushBundle(client, parseReference(`${reg.host}/libs/app:v1`), bundle('2'));
    now += 10 * 60 * 1000;
    assert.equal(await remote.stillValid(r.remote!.deps, r.remote!.policy), false);
  });

  test('by digest: never asked again', async () => {
    registryRequests.length = 0;
    now += 10 * 60 * 1000;
    const r = await show(remote, [`oci://${reg.host}/libs/app@${digest}`], oci());
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /v: "1"/);
    assert.deepEqual(registryRequests, []);
    assert.equal(r.remote, undefined, 'a pinned bundle is no dependency');
  });

  test('features the bundle declares must be enabled', async () => {
    const r = await show(remote, [`oci://${reg.host}/libs/gated:v1`], oci());
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /the bundle needs features eval, yakl, not enabled in this invocation/);
    const ok = await show(remote, [`oci://${reg.host}/libs/gated:v1`], { ...oci(), features: ['eval,yakl'] });
    assert.equal(ok.exitCode, 0, ok.stderr);
  });

  test('a missing path lists what the bundle has', async () => {
    write('oci-missing.jsonnet', `import 'oci://${reg.host}/libs/app:v1/nope.libsonnet'`);
    const r = await show(remote, ['oci-missing.jsonnet'], oci());
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /has no file "nope\.libsonnet" \(it has: app\.jsonnet, lib\/k8s\.libsonnet\)/);
  });

  test('a relative import cannot climb out of the bundle', async () => {
    await pushBundle(client, parseReference(`${reg.host}/libs/escape:v1`), {
      ...bundle('e'),
      files: new Map([['app.jsonnet', enc("import '../outside.libsonnet'")]]),
    });
    const r = await show(remote, [`oci://${reg.host}/libs/escape:v1`], oci());
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /leaves the bundle/);
  });

  for (const [label, code, why] of [
    ['file://', "importstr 'file:///etc/passwd'", /a file of an OCI bundle imports files of its own bundle/],
    ['an absolute path', "importstr '/etc/passwd'", /not a relative path/],
  ] as const) {
    test(`bundle code cannot read local files (${label})`, async () => {
      const name = `libs/reader-${label.replace(/\W/g, '')}:v1`;
      await pushBundle(client, parseReference(`${reg.host}/${name}`), {
        ...bundle('r'),
        files: new Map([['app.jsonnet', enc(code)]]),
      });
      const r = await show(remote, [`oci://${reg.host}/${name}`], { ...oci(), features: ['eval'] }, 'eval');
      assert.equal(r.exitCode, 1);
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stderr, /root:x:0:0/);
    });
  }

  const image = (): string => `${reg.host}/libs/app:v1`;
  test('resolveImage in registry mode pins the tag to its digest', async () => {
    write('img.jsonnet', `${cm(`std.native('resolveImage')('${image()}')`)}`);
    const r = await show(remote, ['img.jsonnet'], { ...oci(), 'resolve-images': 'registry' });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`name: ${reg.host.replace(/\./g, '\\.')}/libs/app@sha256:[0-9a-f]{64}`));
  });

  const failures: Array<[string, number, RegExp, RegExp]> = [
    ['error', 1, /unable to get digest from the registry: /, /^$/],
    ['warn', 0, /unable to get digest from the registry: /, /libs\/missing:nope/],
    ['ignore', 0, /^$/, /libs\/missing:nope/],
  ];
  for (const [mode, code, stderr, stdout] of failures) {
    test(`resolveImage failure with --resolve-images-error=${mode}`, async () => {
      write('img-missing.jsonnet', `${cm(`std.native('resolveImage')('${reg.host}/libs/missing:nope')`)}`);
      const r = await show(remote, ['img-missing.jsonnet'], {
        ...oci(),
        'resolve-images': 'registry',
        'resolve-images-error': mode,
      });
      assert.equal(r.exitCode, code, r.stderr);
      assert.match(r.stderr, stderr);
      assert.match(r.stdout, stdout);
    });
  }
});
