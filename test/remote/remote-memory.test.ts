/**
 * Issue 21 item 4: a remote render that needs ~120 MB was reported as "ran out of memory (limit
 * 1024 MiB heap)". The cause was the child's address-space limit (default heap x 2 + 2 GiB): undici's
 * llhttp WebAssembly memory reserved 2-4 GiB of it at start-up, and the heap's growth then died of
 * std::bad_alloc. The child now caps WebAssembly reservations, and a native allocation failure is
 * reported as the address-space limit, not the heap. Runs with the service's default limits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hasOpenssl, RemoteSandbox, type ServerHandle } from './harness.js';

const skip = hasOpenssl() ? false : 'openssl is not installed';

const FOLD = 'std.foldl(function(a, b) a + b, std.range(0, 150000), 0)';

describe('remote render memory with the default limits', { skip }, () => {
  let sb: RemoteSandbox;
  let srv: ServerHandle;
  let dir: string;

  before(async () => {
    sb = new RemoteSandbox([{ name: 'team-m', maxConcurrent: 1 }]);
    srv = await sb.startServer();
    dir = sb.clientDir('fold', {
      'ok.jsonnet': '{ a: 1 }\n',
      'fold.jsonnet': FOLD + '\n',
      'range.jsonnet': 'std.range(0, 1e8)\n',
      'fold-object.jsonnet': `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sum' }, data: { sum: std.toString(${FOLD}) } }\n`,
    });
  });
  after(async () => {
    await srv?.stop();
    sb?.cleanup();
  });

  test('a 150000-step foldl renders in a fresh child and again in a warm one', async () => {
    // One child serves the tenant (maxConcurrent 1): the later renders reuse it.
    const steps: [string[], RegExp][] = [
      [['jsonnet', 'ok.jsonnet'], /"a": 1/],
      [['jsonnet', 'fold.jsonnet'], /^11250075000$/m],
      [['show', 'fold-object.jsonnet'], /sum: "11250075000"/],
      [['jsonnet', 'fold.jsonnet', '--ext-str', 'again=1'], /^11250075000$/m],
    ];
    for (const [args, want] of steps) {
      const r = await sb.runClient(dir, 'team-m', srv.url, args);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, want, args.join(' '));
    }
    assert.doesNotMatch(srv.logs(), /render child stopped/);
  });

  test("a size known up front is refused against the child's heap limit, as a render error", async () => {
    const r = await sb.runClient(dir, 'team-m', srv.url, ['jsonnet', 'range.jsonnet']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /std\.range\(0, 100000000\) .* needs at least 4\.5 GiB, more than the render heap limit \(1024 MiB\)/,
    );
    assert.match(r.stderr, /range\.jsonnet:1:1/);
  });
});
