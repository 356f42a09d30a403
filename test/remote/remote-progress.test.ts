/**
 * Upload progress of `--remote` renders on stderr (issue 23): quiet when
 * stderr is not a terminal (the other remote tests check an empty stderr),
 * printed with `--progress` (here, on a pipe), and `--progress=false`
 * silences it. Service and CLI as processes on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hasOpenssl, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';
const FILES = {
  'app.jsonnet': "{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' }, data: { a: importstr 'a.txt' } }\n",
  'a.txt': 'x'.repeat(3000),
};

describe('remote upload progress', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-p' }]);
    srv = await sb.startServer();
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('--progress prints what is uploaded; a second run has nothing to upload', async () => {
    const dir = sb.clientDir('progress', FILES);
    const first = await sb.runClient(dir, 'team-p', srv.url, ['--progress', 'show', 'app.jsonnet']);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /name: p/);
    assert.match(first.stderr, /^kubecfg: remote: uploading 2 of 2 files \(3\.\d KiB\)$/m);
    assert.match(first.stderr, /^kubecfg: remote: uploaded 2\/2 files \(3\.\d KiB of 3\.\d KiB\)$/m);
    const again = await sb.runClient(dir, 'team-p', srv.url, ['show', '--progress=true', 'app.jsonnet']);
    assert.equal(again.stderr, 'kubecfg: remote: all 2 files already on the service\n');
    const quiet = await sb.runClient(dir, 'team-p', srv.url, ['--progress=false', 'show', 'app.jsonnet']);
    assert.equal(quiet.stderr, '');
    assert.equal(quiet.stdout, first.stdout);
  });
});
