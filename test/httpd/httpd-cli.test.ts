/**
 * `kubecfg httpd` through the real CLI and daemon (needs `npm run build`):
 * the listener lives in the daemon while the CLI's streaming request is
 * open; the CLI prints the log lines; Ctrl-C cancels the request, which
 * closes the listener, and the CLI exits 130. Also --no-daemon.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, httpRequest, Sandbox, waitFor } from '../daemon/harness.js';

const HOOK = 'function(request) { echo: request.name, children: [] }\n';

describe('kubecfg httpd via the CLI', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    writeFileSync(join(sb.work, 'sync.jsonnet'), HOOK);
  });
  after(() => sb.cleanup());

  for (const mode of ['daemon', 'no-daemon'] as const) {
    it(`serves POST /sync until Ctrl-C (${mode})`, async () => {
      const extra = mode === 'no-daemon' ? ['--no-daemon'] : [];
      const child = sb.spawnCli([
        ...extra,
        '--features=httpd',
        'httpd',
        'sync.jsonnet',
        '--listen-addr',
        '127.0.0.1:0',
      ]);
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const port = await waitFor('the listening line', () => {
        const m = /^Listening on 127\.0\.0\.1:(\d+)$/m.exec(stderr);
        return m ? Number(m[1]) : undefined;
      });
      const reply = await httpRequest({ host: '127.0.0.1', port }, { path: '/sync', body: '{"name": "x"}' });
      assert.equal(reply.status, 200, reply.body);
      assert.deepEqual(JSON.parse(reply.body), { echo: 'x', children: [] });
      await waitFor('the request log line', () => /POST \/sync 200/.test(stderr) || undefined);
      child.kill('SIGINT');
      assert.equal(await exited, 130, stderr);
      await assert.rejects(httpRequest({ host: '127.0.0.1', port }, { method: 'GET', path: '/healthz' }));
    });
  }

  it('a file without a top-level function: clear error, exit 1', async () => {
    writeFileSync(join(sb.work, 'obj.jsonnet'), '{ a: 1 }\n');
    const r = await sb.run(['--features=httpd', 'httpd', 'obj.jsonnet', '--listen-addr', '127.0.0.1:0']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /obj\.jsonnet: httpd calls the file's top-level function with the request, but the file's value is an object/,
    );
  });
});
