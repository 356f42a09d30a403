/**
 * The remote render service end to end: a service process and CLI processes
 * with separate working directories on loopback. Upload savings and the
 * per-tenant result cache, tenant isolation, authentication (hazard 30),
 * reads outside the manifest (hazards 3-5, 26), ext vars from requests bound
 * as strings (hazard 23), and work directories removed after each request.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FROM_DIST, hasOpenssl, metricValue, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';

function get(
  url: string,
  ca: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url + path,
      { method: body === undefined ? 'GET' : 'POST', ca, headers, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const app = (name: string): string =>
  `local lib = import 'lib/lib.libsonnet';\n{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${name}' }, data: { greeting: lib.greeting, note: importstr 'notes/note.txt' } }\n`;
const FILES = {
  'app.jsonnet': app('demo'),
  'lib/lib.libsonnet': "{ greeting: 'hello' }\n",
  'notes/note.txt': 'a note\n',
  'unrelated/big.txt': 'x'.repeat(10_000),
};

describe('remote render', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let ca: string;
  const metrics = async (): Promise<string> => (await get(srv.url, ca, '/metrics')).text;

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-a' }, { name: 'team-b' }]);
    ca = readFileSync(sb.tls.ca, 'utf8');
    srv = await sb.startServer();
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('a second cold client uploads nothing and gets the cached result; an edit uploads only that file', async () => {
    const first = sb.clientDir('runner-1', FILES);
    const r1 = await sb.runClient(first, 'team-a', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r1.stderr, '');
    assert.equal(r1.code, 0);
    assert.match(r1.stdout, /greeting: hello/);
    const uploaded = metricValue(await metrics(), 'kubecfg_remote_upload_bytes_total', { tenant: 'team-a' });
    const total = Object.values(FILES).reduce((n, t) => n + Buffer.byteLength(t), 0);
    assert.equal(uploaded, total);

    const second = sb.clientDir('runner-2', FILES);
    const r2 = await sb.runClient(second, 'team-a', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r2.stdout, r1.stdout);
    let m = await metrics();
    assert.equal(metricValue(m, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-a' }), total, 'nothing uploaded');
    assert.equal(metricValue(m, 'kubecfg_remote_upload_bytes_saved_total', { tenant: 'team-a' }), total);
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-a', outcome: 'cached' }), 1);

    // A file the render never read changes: still a cache hit, and only that file travels.
    writeFileSync(join(second, 'unrelated/big.txt'), 'y'.repeat(10_000));
    const r3 = await sb.runClient(second, 'team-a', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r3.stdout, r1.stdout);
    m = await metrics();
    assert.equal(metricValue(m, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-a' }), total + 10_000);
    assert.equal(metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-a', outcome: 'cached' }), 2);

    // An imported file changes: rendered again, with the new content.
    writeFileSync(join(second, 'lib/lib.libsonnet'), "{ greeting: 'bonjour' }\n");
    const r4 = await sb.runClient(second, 'team-a', srv.url, ['show', 'app.jsonnet']);
    assert.match(r4.stdout, /greeting: bonjour/);
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });

  test('tenant isolation: the same digests give tenant B neither blobs nor results', async () => {
    const dir = sb.clientDir('runner-b', FILES);
    const before = await metrics();
    assert.equal(metricValue(before, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-b' }), 0);
    // Asking to render with tenant A's digests, without uploading, names them all missing.
    const digest =
      'sha256:' + (await import('node:crypto')).createHash('sha256').update(FILES['app.jsonnet']).digest('hex');
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'remote/render',
      params: {
        method: 'render/show',
        params: {
          requestId: 'r',
          args: ['app.jsonnet'],
          flags: {},
          cwd: '.',
          env: {},
          tty: {
            stdoutIsTTY: false,
            stderrIsTTY: false,
            columns: null,
            color: 'never',
            noColor: true,
            forceColor: null,
          },
        },
        manifest: { 'app.jsonnet': digest },
      },
    });
    const res = await get(
      srv.url,
      ca,
      '/rpc',
      { authorization: `Bearer ${sb.tokens.get('team-b')}`, 'content-type': 'application/json' },
      body,
    );
    const answer = JSON.parse(res.text) as { error: { code: number; data: { missing: string[] } } };
    assert.equal(answer.error.code, -31951);
    assert.deepEqual(answer.error.data.missing, [digest]);

    const r = await sb.runClient(dir, 'team-b', srv.url, ['show', 'app.jsonnet']);
    assert.equal(r.code, 0);
    const m = await metrics();
    const total = Object.values(FILES).reduce((n, t) => n + Buffer.byteLength(t), 0);
    assert.equal(
      metricValue(m, 'kubecfg_remote_upload_bytes_total', { tenant: 'team-b' }),
      total,
      'B uploads its own copy',
    );
    assert.equal(
      metricValue(m, 'kubecfg_remote_requests_total', { tenant: 'team-b', outcome: 'cached' }),
      0,
      'no result of A served to B',
    );
  });

  test('authentication is checked before the body: no token, a wrong token, a wrong length, a browser origin', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"remote/missing","params":{"digests":[]}}';
    const good = sb.tokens.get('team-a')!;
    const cases: [Record<string, string>, number][] = [
      [{}, 401],
      [{ authorization: `Bearer ${randomBytes(32).toString('hex')}` }, 401],
      [{ authorization: `Bearer ${good.slice(0, 20)}` }, 401],
      [{ authorization: `Bearer ${good}x` }, 401],
      [{ authorization: good }, 401],
      [{ authorization: `Bearer ${good}`, origin: 'https://evil.example' }, 403],
      [{ authorization: `Bearer ${good}` }, 200],
    ];
    for (const [headers, status] of cases) {
      const res = await get(srv.url, ca, '/rpc', { 'content-type': 'application/json', ...headers }, body);
      assert.equal(res.status, status, JSON.stringify(Object.keys(headers)));
    }
    // Nothing malformed reaches the parser unauthenticated: garbage with no token is a 401, not a parse error.
    assert.equal((await get(srv.url, ca, '/rpc', {}, '{{{')).status, 401);
    assert.doesNotMatch(srv.logs(), new RegExp(good), 'the token is never logged');
    assert.equal((await get(srv.url, ca, '/healthz')).text, 'ok\n');
    assert.equal((await get(srv.url, ca, '/readyz')).status, 200);
  });

  test('reads outside the manifest fail as missing and leak nothing (hazards 3, 4, 26)', async () => {
    const canary = `CANARY-${randomBytes(8).toString('hex')}`;
    writeFileSync(join(sb.dir, 'canary.txt'), canary);
    writeFileSync(join(sb.dir, 'clients', 'canary.json'), `{"secret": "${canary}"}`);
    const dir = sb.clientDir('hostile', {
      'passwd.jsonnet': "{ x: importstr '/etc/passwd' }",
      'environ.jsonnet': "{ x: importstr '/proc/self/environ' }",
      'canary.jsonnet': `{ x: importbin '${join(sb.dir, 'canary.txt')}' }`,
      'sibling.jsonnet': "{ x: import '../canary.json' }",
      'bad.yaml': `apiVersion: v1\nkind: Secret\ndata: { a: ${canary} ]\n`,
    });
    for (const file of ['passwd.jsonnet', 'environ.jsonnet', 'canary.jsonnet', 'sibling.jsonnet', 'bad.yaml']) {
      const r = await sb.runClient(dir, 'team-a', srv.url, ['show', file]);
      assert.notEqual(r.code, 0, file);
      assert.equal(r.stdout, '', file);
      assert.doesNotMatch(r.stderr, /root:x:0|CANARY|PATH=/, file);
      assert.doesNotMatch(r.stderr, new RegExp(sb.workDir), `${file}: no server work path in the error`);
    }
    assert.doesNotMatch(srv.logs(), new RegExp(canary));
    assert.deepEqual(sb.leftoverWorkdirs(), []);
  });

  test('ext vars from requests are bound as strings unless the tenant allows code (hazard 23)', async () => {
    const dir = sb.clientDir('extvars', {
      'cm.jsonnet':
        "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'v' }, data: { v: std.toString(std.extVar('x')) } }",
    });
    const r = await sb.runClient(dir, 'team-a', srv.url, [
      'show',
      'cm.jsonnet',
      '--ext-code',
      'x=import "/etc/passwd"',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /v: import "\/etc\/passwd"/);
    assert.match(r.stderr, /bound as strings/);
  });

  test('remote inputs to hosts outside the tenant importHosts are refused (hazard 24)', async () => {
    const dir = sb.clientDir('ssrf', {
      'meta.jsonnet': "{ x: importstr 'http://169.254.169.254/latest/meta-data/' }",
      'local.jsonnet': "{ x: importstr 'https://localhost:1/x' }",
    });
    for (const file of ['meta.jsonnet', 'local.jsonnet']) {
      const r = await sb.runClient(dir, 'team-a', srv.url, ['show', file]);
      assert.equal(r.code, 1, file);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /is not one of the import hosts this remote render tenant may reach/, file);
    }
  });

  // The CLI finds server entries beside its bundle, so this runs from dist/ only.
  const fromSources = FROM_DIST ? false : 'the CLI bundle finds dist/server/remote/main.js';
  test(
    '`kubecfg daemon start --tls-cert --tls-key --tokens` runs the same service',
    { skip: fromSources },
    async () => {
      const viaCli = await sb.startServer([], 0, true);
      try {
        const dir = sb.clientDir('cli-started', FILES);
        const r = await sb.runClient(dir, 'team-a', viaCli.url, ['show', 'app.jsonnet']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /greeting: hello/);
      } finally {
        await viaCli.stop();
      }
    },
  );

  test('requests that would write or watch are refused', async () => {
    const dir = sb.clientDir('writer', { 'a.jsonnet': '{}' });
    const r = await sb.runClient(dir, 'team-a', srv.url, ['show', 'a.jsonnet', '--export-dir', 'out']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--export-dir is not available in a remote render/);
  });
});
