/**
 * Render workers under stress (hazard 31): a render that exhausts its worker's
 * heap fails alone while two others succeed and the daemon keeps serving;
 * status answers while a render runs; cancel by Ctrl-C and by request/cancel,
 * for a render that polls the cancel flag and for one that never does (the
 * worker is then terminated and replaced).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, collect, commandParams, hookFile, httpRequest, rpc, Sandbox, waitFor } from './harness.js';

describe('render workers', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  before(async () => {
    sb = new Sandbox();
    const r = await sb.run(['daemon', 'start', '--workers', '3', '--worker-memory-mb', '48']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => sb.cleanup());

  const status = async (): Promise<any> => (await rpc(sb.socket, 'daemon/status', {})).result;

  it('keeps serving when one render runs out of memory while two others succeed', async () => {
    writeFileSync(
      join(sb.work, 'one.json'),
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } }),
    );
    writeFileSync(join(sb.work, 'two.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: two\n');
    const oom = hookFile(sb, 'oom', 'oom');
    const before = (await status()).workersReplaced;
    const [one, bomb, two] = await Promise.all([
      sb.run(['show', 'one.json']),
      sb.run(['show', oom]),
      sb.run(['show', 'two.yaml']),
    ]);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(one.stdout, '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n');
    assert.equal(two.code, 0, two.stderr);
    assert.equal(two.stdout, '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: two\n');
    assert.equal(bomb.code, 1);
    assert.match(bomb.stderr, /ran out of memory \(worker heap limit 48 MiB\).*replaced the worker/);
    const after = await status();
    assert.ok(after.workersReplaced > before, 'the crashed worker was replaced');
    assert.equal(after.workers.length, 3);
    const again = await sb.run(['show', 'one.json']);
    assert.equal(again.code, 0, again.stderr);
  });

  it('answers status while a render runs, and Ctrl-C cancels it', async () => {
    const spin = hookFile(sb, 'spin', 'spin');
    const child = sb.spawnCli(['show', spin]);
    const done = collect(child);
    const running = await waitFor('the render to run', async () => {
      const st = await status();
      return st.requestsInFlight === 1 && st.workers.some((w: { busy: boolean }) => w.busy) ? st : undefined;
    });
    assert.equal(running.requestsInFlight, 1);
    const replacedBefore = running.workersReplaced;
    child.kill('SIGINT');
    const r = await done;
    assert.equal(r.code, 130, r.stderr);
    const st = await waitFor('the worker to be idle', async () => {
      const s = await status();
      return s.workers.every((w: { busy: boolean }) => !w.busy) ? s : undefined;
    });
    assert.equal(st.requestsInFlight, 0);
    assert.equal(st.workersReplaced, replacedBefore, 'a render that polls the flag stops without killing its worker');
  });

  it('request/cancel terminates a render that ignores the cancel flag', async () => {
    const hang = hookFile(sb, 'hang', 'hang');
    const replacedBefore = (await status()).workersReplaced;
    const stream = httpRequest(
      { socketPath: sb.socket },
      {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'render/show',
          params: commandParams(sb, 'hang-1', [hang]),
        }),
      },
    );
    await waitFor('the render to run', async () => ((await status()).requestsInFlight === 1 ? true : undefined));
    const cancel = await rpc(sb.socket, 'request/cancel', { requestId: 'hang-1' });
    assert.deepEqual(cancel.result, { cancelled: true });
    const reply = await stream;
    const last = JSON.parse(reply.body.trim().split('\n').pop()!);
    assert.equal(last.error.code, -31999);
    await waitFor('the worker to be replaced', async () =>
      (await status()).workersReplaced > replacedBefore ? true : undefined,
    );
  });

  it('rejects a second request with an id already in flight', async () => {
    const spin = hookFile(sb, 'spin2', 'spin');
    const first = httpRequest(
      { socketPath: sb.socket },
      {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'render/show',
          params: commandParams(sb, 'dup', [spin]),
        }),
      },
    );
    await waitFor('the render to run', async () => ((await status()).requestsInFlight === 1 ? true : undefined));
    const second = await rpc(sb.socket, 'render/show', commandParams(sb, 'dup', [spin]), 2);
    assert.equal(second.error.code, -31995);
    await rpc(sb.socket, 'request/cancel', { requestId: 'dup' });
    await first;
  });
});
