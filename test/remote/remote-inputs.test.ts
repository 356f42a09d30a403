/**
 * Remote inputs inside remote renders (issue 12, hazard 24), end to end on
 * loopback: the service fetches http(s) and oci:// imports in its parent
 * process for a tenant whose importHosts allow the host, refuses them for a
 * tenant whose list does not (also on a redirect, and for a bundle already
 * on the service's disk), re-renders a cached result when the URL's body
 * changed; and a client interrupted with Ctrl-C stops its render (child
 * killed, slot released, nothing left behind).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { pushBundle } from '../../oci/bundle.js';
import { RegistryClient } from '../../oci/client.js';
import { parseReference } from '../../oci/reference.js';
import { registrySkipReason, startTestRegistry, type TestRegistry } from '../oci/registry-fixture.js';
import { hasOpenssl, metricValue, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';
const SPIN = 'local f(n) = if n == 0 then 0 else f(n - 1) + f(n - 1); { v: f(40) }';
const QUICK = "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'quick' } }";

function getText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls `probe` until it holds (at most `tries` × 100 ms); the test then asserts on the state itself. */
async function eventually(probe: () => Promise<boolean>, tries = 200): Promise<void> {
  for (let i = 0; i < tries && !(await probe()); i++) await new Promise((r) => setTimeout(r, 100));
}

describe('remote inputs in remote renders', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let ca: string;
  let lib: Server;
  let libBase = '';
  let body = 'v1';
  const seen: string[] = [];
  const metrics = (): Promise<string> => getText(`${srv.url}/metrics`, ca);

  before(async () => {
    lib = createServer((req, res) => {
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      seen.push(`${req.url} ${req.headers['if-none-match'] === etag ? 'conditional' : 'plain'}`);
      if (req.url === '/lib.libsonnet') {
        if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
        return void res.writeHead(200, { etag, 'cache-control': 'no-cache' }).end(`{ greeting: '${body}' }`);
      }
      if (req.url === '/to-other')
        return void res.writeHead(302, { location: `http://127.0.0.2:${new URL(libBase).port}/lib.libsonnet` }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => lib.listen(0, '127.0.0.1', r));
    libBase = `http://127.0.0.1:${(lib.address() as AddressInfo).port}`;
    sb = new RemoteSandbox([
      { name: 'net', importHosts: ['127.0.0.1'] },
      { name: 'nonet' },
      { name: 'slow', maxConcurrent: 1, maxQueued: 0 },
    ]);
    ca = readFileSync(sb.tls.ca, 'utf8');
    srv = await sb.startServer(['--fetch-cache', `${sb.dir}/fetched`]);
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
    lib?.close();
  });

  const files = (): Record<string, string> => ({
    'app.jsonnet': `local lib = import '${libBase}/lib.libsonnet';\n{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fetched' }, data: { greeting: lib.greeting } }\n`,
    'redirect.jsonnet': `{ x: importstr '${libBase}/to-other' }\n`,
    'meta.jsonnet': "{ x: importstr 'http://169.254.169.254/latest/meta-data/' }\n",
  });

  test('a tenant allowing 127.0.0.1 imports over http; a changed body re-renders, an unchanged one is cached', async () => {
    const r1 = await sb.runClient(sb.clientDir('net-1', files()), 'net', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r1.code, 0, r1.stderr);
    assert.match(r1.stdout, /greeting: v1/);
    assert.equal(r1.stderr, '');

    const fetchesBefore = seen.length;
    const r2 = await sb.runClient(sb.clientDir('net-2', files()), 'net', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r2.stdout, r1.stdout);
    assert.equal(metricValue(await metrics(), 'kubecfg_remote_cache_hits_total', { tenant: 'net' }), 1);
    // The cached result was re-checked with a conditional request (no-cache), which answered 304.
    assert.deepEqual(seen.slice(fetchesBefore), ['/lib.libsonnet conditional']);

    body = 'v2';
    const r3 = await sb.runClient(sb.clientDir('net-3', files()), 'net', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r3.code, 0, r3.stderr);
    assert.match(r3.stdout, /greeting: v2/, 'the changed remote body re-rendered');
    assert.equal(metricValue(await metrics(), 'kubecfg_remote_cache_hits_total', { tenant: 'net' }), 1);
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });

  test('imports are refused for a tenant without the host, on a redirect to another host, and to metadata (hazard 24)', async () => {
    const dir = sb.clientDir('refused', files());
    const before = seen.length;
    const nonet = await sb.runClient(dir, 'nonet', srv.url, ['show', 'app.jsonnet']);
    assert.equal(nonet.code, 1);
    assert.equal(nonet.stdout, '');
    assert.match(nonet.stderr, /127\.0\.0\.1 is not one of the import hosts this remote render tenant may reach/);
    assert.equal(seen.length, before, 'nothing reached the server for the tenant without the host');

    const hop = await sb.runClient(dir, 'net', srv.url, ['show', 'redirect.jsonnet']);
    assert.equal(hop.code, 1);
    assert.match(hop.stderr, /127\.0\.0\.2 is not one of the import hosts/);

    for (const tenant of ['net', 'nonet']) {
      const meta = await sb.runClient(dir, tenant, srv.url, ['show', 'meta.jsonnet']);
      assert.equal(meta.code, 1, tenant);
      assert.match(meta.stderr, /169\.254\.169\.254 is not one of the import hosts/, tenant);
    }
    // Neither the service's paths nor the request's flags leak the allow-list of another tenant.
    assert.doesNotMatch(nonet.stderr, /\/tmp\//);
  });

  describe('oci:// imports from a registry', { skip: registrySkipReason() ?? false }, () => {
    let reg: TestRegistry;
    let digest = '';
    const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
    before(async () => {
      reg = await startTestRegistry();
      const client = new RegistryClient({ insecureRegistries: [reg.host] });
      try {
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
      } finally {
        await client.close();
      }
    });
    after(async () => {
      await reg?.stop();
    });

    test('a tenant allowing the registry host imports from a bundle; others are refused even once it is on disk', async () => {
      const dir = sb.clientDir('oci', {
        'tag.jsonnet': `(import 'oci://${reg.host}/libs/app:v1/lib/ns.libsonnet')('imported')\n`,
        'pinned.jsonnet': `(import 'oci://${reg.host}/libs/app@${digest}/lib/ns.libsonnet')('pinned')\n`,
      });
      const flags = ['--insecure-registry', reg.host];
      const ok = await sb.runClient(dir, 'net', srv.url, ['show', 'tag.jsonnet', ...flags]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /kind: Namespace/);
      assert.match(ok.stdout, /name: imported/);
      const pinned = await sb.runClient(dir, 'net', srv.url, ['show', 'pinned.jsonnet', ...flags]);
      assert.equal(pinned.code, 0, pinned.stderr);
      assert.match(pinned.stdout, /name: pinned/);

      for (const file of ['tag.jsonnet', 'pinned.jsonnet']) {
        const r = await sb.runClient(dir, 'nonet', srv.url, ['show', file, ...flags]);
        assert.equal(r.code, 1, file);
        assert.equal(r.stdout, '', file);
        assert.match(r.stderr, /127\.0\.0\.1 is not one of the import hosts/, file);
      }
    });
  });

  test('Ctrl-C on the client kills the remote render and frees its slot', async () => {
    const dir = sb.clientDir('cancel', { 'spin.jsonnet': SPIN, 'quick.jsonnet': QUICK });
    const run = sb.startClient(dir, 'slow', srv.url, ['jsonnet', 'spin.jsonnet']);
    await eventually(async () => metricValue(await metrics(), 'kubecfg_remote_renders_in_flight') >= 1);
    assert.equal(metricValue(await metrics(), 'kubecfg_remote_renders_in_flight'), 1, 'the slow render started');
    run.proc.kill('SIGINT');
    const interrupted = await run.result;
    assert.equal(interrupted.code, 130);
    assert.match(interrupted.stderr, /interrupted/);

    await eventually(async () => metricValue(await metrics(), 'kubecfg_remote_renders_in_flight') === 0);
    const m = await metrics();
    assert.equal(metricValue(m, 'kubecfg_remote_renders_in_flight'), 0);
    assert.equal(metricValue(m, 'kubecfg_remote_child_kills_total', { reason: 'cancelled' }), 1);
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'slow', outcome: 'cancelled' }), 1);
    // One slot, no queue: this answers only because the cancelled render released its slot.
    const quick = await sb.runClient(dir, 'slow', srv.url, ['show', 'quick.jsonnet']);
    assert.equal(quick.code, 0, quick.stderr);
    assert.match(quick.stdout, /name: quick/);
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });
});
