/**
 * The thin CLI against a daemon's TCP listener (`--daemon-url tcp://HOST:PORT`
 * plus the token): a command runs there, the CLI never starts a local daemon,
 * and a bad token or a token file others can read gives a clear error.
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, rpc, Sandbox } from './harness.js';

describe('CLI through a TCP daemon', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let daemon: Sandbox;
  let client: Sandbox;
  let url: string;
  let tokenFile: string;
  before(async () => {
    daemon = new Sandbox();
    client = new Sandbox();
    const r = await daemon.run(['daemon', 'start', '--listen', '127.0.0.1:0', '--workers', '1']);
    assert.equal(r.code, 0, r.stderr);
    const st = (await rpc(daemon.socket, 'daemon/status', {})).result;
    url = `tcp://${st.tcpListen}`;
    tokenFile = join(client.root, 'daemon-token');
    writeFileSync(tokenFile, readFileSync(join(daemon.daemonDir, 'tcp-token')), { mode: 0o600 });
    writeFileSync(
      join(client.work, 'app.jsonnet'),
      '{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "tcp" } }\n',
    );
  });
  after(async () => {
    await client.cleanup();
    await daemon.cleanup();
  });

  it('runs a command with --daemon-url and --daemon-token-file', async () => {
    const r = await client.run(['--daemon-url', url, '--daemon-token-file', tokenFile, 'show', 'app.jsonnet']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tcp\n');
    assert.deepEqual(client.daemonPids(), [], 'no local daemon was started');
  });

  it('reads KUBECFG_DAEMON_URL and KUBECFG_DAEMON_TOKEN', async () => {
    const token = readFileSync(tokenFile, 'utf8').trim();
    const r = await client.run(['show', 'app.jsonnet'], {
      env: { KUBECFG_DAEMON_URL: url, KUBECFG_DAEMON_TOKEN: token },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /name: tcp/);
  });

  const failures: { name: string; args: () => string[]; env?: Record<string, string>; message: RegExp }[] = [
    {
      name: 'a wrong token',
      args: () => ['--daemon-url', url, 'show', 'app.jsonnet'],
      env: { KUBECFG_DAEMON_TOKEN: '0'.repeat(64) },
      message: /refused the token \(401\)/,
    },
    {
      name: 'no token at all',
      args: () => ['--daemon-url', url, 'show', 'app.jsonnet'],
      message: /--daemon-url needs a token: set KUBECFG_DAEMON_TOKEN or --daemon-token-file FILE/,
    },
    {
      name: 'a URL of another scheme',
      args: () => ['--daemon-url', 'http://127.0.0.1:1', '--daemon-token-file', tokenFile, 'show', 'app.jsonnet'],
      message: /only tcp:\/\/HOST:PORT is supported/,
    },
    {
      name: 'a listener that is not there',
      args: () => ['--daemon-url', 'tcp://127.0.0.1:1', '--daemon-token-file', tokenFile, 'show', 'app.jsonnet'],
      message: /cannot reach the kubecfg daemon at tcp:\/\/127\.0\.0\.1:1/,
    },
  ];
  for (const f of failures) {
    it(`explains ${f.name}`, async () => {
      const r = await client.run(f.args(), { env: f.env ?? {} });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, f.message);
      assert.deepEqual(client.daemonPids(), []);
    });
  }

  it('refuses a token file that others can read', async () => {
    const loose = join(client.root, 'loose-token');
    writeFileSync(loose, readFileSync(tokenFile));
    chmodSync(loose, 0o644);
    const r = await client.run(['--daemon-url', url, '--daemon-token-file', loose, 'show', 'app.jsonnet']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /readable by others \(mode 644\): chmod 600 it/);
  });
});
