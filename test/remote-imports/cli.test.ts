// Remote and confined inputs through the built CLI, with the daemon and with --no-daemon: an
// http import from a local server (127.0.0.1 allow-listed explicitly) and its refusal without the
// allow-list, -U, data:, a URL input, the --root table (hazards 1-3, a canary outside the root
// never printed), oci:// imports of a bundle pushed to a real registry behind a counting proxy
// (a second show within the TTL makes no registry request, none ever by digest), and resolveImage
// in registry mode.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RegistryClient } from '../../oci/client.js';
import { pushBundle } from '../../oci/bundle.js';
import { parseReference } from '../../oci/reference.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';
import { startProxy } from '../support/connect-proxy.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];
const canary = `canary-${randomBytes(8).toString('hex')}`;
const cm = (name: string): string => `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ${name} } }`;

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('remote and confined inputs (CLI)', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  let web: { server: Server; base: string };
  const write = (rel: string, text: string): void => {
    mkdirSync(join(sb.work, rel, '..'), { recursive: true });
    writeFileSync(join(sb.work, rel), text);
  };
  before(async () => {
    sb = new Sandbox();
    sb.env.XDG_CACHE_HOME = join(sb.root, 'cache');
    web = await listen((req, res) => {
      const files: Record<string, string> = {
        '/lib/main.libsonnet': "{ name: (import 'names.libsonnet').n }",
        '/lib/names.libsonnet': "{ n: 'remote' }",
        '/app.jsonnet': cm("(import 'lib/names.libsonnet').n"),
      };
      const body = files[req.url ?? ''];
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'cache-control': 'max-age=300' }).end(body);
    });
    write('remote.jsonnet', `${cm(`(import 'http://${web.base}/lib/main.libsonnet').name`)}`);
    write('viaU.jsonnet', `${cm("(import 'names.libsonnet').n")}`);
    write('data.jsonnet', `${cm('import \'data:,"from-data"\'')}`);
    // --root fixtures: repo/ is the root; secret.txt and repo-evil/ sit beside it.
    write('secret.txt', canary);
    write('repo-evil/x.libsonnet', `'${canary}'`);
    write('repo/ok.jsonnet', `${cm("importstr 'sub/name.txt'")}`);
    write('repo/sub/name.txt', 'inside');
    write('repo/up.jsonnet', `${cm("importstr '../secret.txt'")}`);
    write('repo/abs.jsonnet', `${cm("importstr '/etc/passwd'")}`);
    write('repo/environ.jsonnet', `${cm("importstr '/proc/self/environ'")}`);
    write('repo/sibling.jsonnet', `${cm("import '../repo-evil/x.libsonnet'")}`);
    write('repo/link.jsonnet', `${cm("importstr 'leak.txt'")}`);
    symlinkSync('../secret.txt', join(sb.work, 'repo', 'leak.txt'));
    symlinkSync('../up.jsonnet', join(sb.work, 'repo', 'sub-link.jsonnet'));
  });
  after(async () => {
    web?.server.close();
    await sb?.cleanup();
  });

  for (const mode of MODES) {
    const run = (args: string[]) => sb.run([...mode.flags, ...args]);

    it(`${mode.name}: an http import, allow-listed`, async () => {
      const r = await run(['show', '--allow-import-host', '127.0.0.1', 'remote.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: remote\n');
    });

    // The one-shot engine bundle loads undici lazily; the proxy router subclasses undici's
    // Dispatcher at first use, so this proves the bundle's facade builds it (not only tsc's output).
    it(`${mode.name}: an http import through HTTP_PROXY (a name only the proxy resolves)`, async () => {
      const proxy = await startProxy();
      try {
        const port = web.base.split(':')[1];
        write(`viaproxy-${mode.name}.jsonnet`, cm(`(import 'http://lib.test:${port}/lib/main.libsonnet').name`));
        const r = await sb.run([...mode.flags, 'show', `viaproxy-${mode.name}.jsonnet`], {
          env: { HTTP_PROXY: proxy.url },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /name: remote/);
        assert.ok(proxy.tunnels.includes(`lib.test:${port}`), proxy.tunnels.join(','));
      } finally {
        await proxy.close();
      }
    });

    it(`${mode.name}: the same import refused without the allow-list`, async () => {
      const r = await run(['show', 'remote.jsonnet']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /refused: 127\.0\.0\.1 is a loopback address; imports may reach it only if allowed/);
      assert.equal(r.stdout, '');
    });

    it(`${mode.name}: -U, data: and a URL input`, async () => {
      const u = await run(['show', '--allow-import-host', '127.0.0.1', '-U', `http://${web.base}/lib`, 'viaU.jsonnet']);
      assert.equal(u.code, 0, u.stderr);
      assert.match(u.stdout, /name: remote/);
      const d = await run(['show', 'data.jsonnet']);
      assert.equal(d.code, 0, d.stderr);
      assert.match(d.stdout, /name: from-data/);
      const url = await run(['show', '--allow-import-host', '127.0.0.1', `http://${web.base}/app.jsonnet`]);
      assert.equal(url.code, 0, url.stderr);
      assert.match(url.stdout, /name: remote/);
    });

    const rootCases: Array<[string, string, RegExp]> = [
      ['../secret', 'repo/up.jsonnet', /couldn't open import "\.\.\/secret\.txt": outside the root/],
      ['/etc/passwd', 'repo/abs.jsonnet', /"\/etc\/passwd": absolute import paths are refused under --root/],
      ['/proc/self/environ', 'repo/environ.jsonnet', /absolute import paths are refused under --root/],
      ['a sibling sharing the prefix', 'repo/sibling.jsonnet', /outside the root/],
      ['a symlink out', 'repo/link.jsonnet', /"leak\.txt": outside the root/],
      ['an input linked out and back', 'repo/sub-link.jsonnet', /outside the root/],
      ['an input outside', 'secret.txt', /secret\.txt: outside the root/],
    ];
    // The whole table through the daemon; one row one-shot (the same code runs in both).
    for (const [name, input, why] of mode.name === 'daemon' ? rootCases : rootCases.slice(0, 1)) {
      it(`${mode.name}: --root refuses ${name}`, async () => {
        const r = await run(['show', '--root', 'repo', input]);
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stderr, why);
        assert.ok(!r.stderr.includes(canary) && !r.stdout.includes(canary), 'the canary leaked');
        assert.ok(!r.stderr.includes(sb.root), 'an absolute host path was printed');
      });
    }

    it(`${mode.name}: --root allows what lies inside`, async () => {
      const r = await run(['show', '--root', 'repo', 'repo/ok.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /name: inside/);
    });
  }

  describe('oci:// and resolveImage', { skip: registrySkipReason() ?? false }, () => {
    let reg: TestRegistry;
    let proxy: { server: Server; base: string };
    const seen: string[] = [];
    let digest = '';
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    before(async () => {
      reg = await startTestRegistry();
      const client = new RegistryClient({ insecureRegistries: [reg.host] });
      digest = (
        await pushBundle(client, parseReference(`${reg.host}/libs/app:v1`), {
          files: new Map([
            ['app.jsonnet', enc("(import 'lib/ns.libsonnet')('bundled')")],
            ['lib/ns.libsonnet', enc("function(n) { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }")],
          ]),
          entrypoint: 'app.jsonnet',
          kubecfgVersion: 'v0.40.0-ts',
          features: [],
        })
      ).digest;
      await client.close();
      // A counting reverse proxy: the CLI and daemon talk to it as the registry.
      const [host, port] = reg.host.split(':') as [string, string];
      proxy = await listen((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        const up = httpRequest(
          { host, port: Number(port), method: req.method, path: req.url, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        up.on('error', () => res.writeHead(502).end());
        req.pipe(up);
      });
    });
    after(async () => {
      proxy?.server.close();
      await reg?.stop();
    });

    for (const mode of MODES) {
      const run = (args: string[]) => sb.run([...mode.flags, '--insecure-registry', proxy.base, ...args]);
      it(`${mode.name}: show oci://host/repo:tag renders the entrypoint`, async () => {
        const r = await run(['show', `oci://${proxy.base}/libs/app:v1`]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: bundled\n');
      });
    }

    it('daemon: a second show within the TTL makes no registry request; by digest none at all', async () => {
      write('oci.jsonnet', `(import 'oci://${proxy.base}/libs/app:v1/lib/ns.libsonnet')('imported')`);
      const args = ['--insecure-registry', proxy.base, 'show'];
      const first = await sb.run([...args, 'oci.jsonnet']);
      assert.equal(first.code, 0, first.stderr);
      seen.length = 0;
      const second = await sb.run([...args, 'oci.jsonnet']);
      assert.equal(second.code, 0, second.stderr);
      assert.equal(second.stdout, first.stdout);
      assert.deepEqual(seen, []);
      const pinned = await sb.run([...args, `oci://${proxy.base}/libs/app@${digest}`]);
      assert.equal(pinned.code, 0, pinned.stderr);
      assert.deepEqual(seen, [], 'the digest-pinned bundle came from the store');
    });

    it('resolveImage --resolve-images=registry pins the tag', async () => {
      write('img.jsonnet', cm(`std.native('resolveImage')('${proxy.base}/libs/app:v1')`));
      const r = await sb.run(['--insecure-registry', proxy.base, '--resolve-images=registry', 'show', 'img.jsonnet']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`name: ${proxy.base.replace(/\./g, '\\.')}/libs/app@${digest}`));
    });
  });
});
