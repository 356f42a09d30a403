/**
 * The one-shot engine runs inside the CLI's process (`--no-daemon`, and the
 * first call when no daemon runs): every outcome must be the daemon's, byte
 * for byte, with its exit code — successes, user errors (missing file, parse
 * and runtime errors, a bad output format, validate's render half) and a bug
 * inside a command, which both report as `kubecfg: internal error in METHOD`.
 * The first call also leaves a daemon behind for the next one.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, hookFile, rpc, Sandbox, waitFor, type RunResult } from './harness.js';

function writeInputs(work: string): void {
  writeFileSync(
    join(work, 'app.jsonnet'),
    "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { n: std.toString(6 * 7) } } }\n",
  );
  writeFileSync(join(work, 'broken.jsonnet'), '{ a: }\n');
  writeFileSync(
    join(work, 'runtime.jsonnet'),
    "local f(x) = if x > 2 then error 'too big: ' + x else x;\n{ v: f(3) }\n",
  );
}

const cases: string[][] = [
  ['show', 'app.jsonnet'],
  ['show', '-o', 'json', 'app.jsonnet'],
  ['eval', 'app.jsonnet'],
  ['jsonnet', 'app.jsonnet'],
  ['show', 'missing.jsonnet'],
  ['show', 'broken.jsonnet'],
  ['show', 'runtime.jsonnet'],
  ['jsonnet', 'runtime.jsonnet'],
  ['eval', 'broken.jsonnet'],
  ['show', '-o', 'xml', 'app.jsonnet'],
  ['validate', 'missing.jsonnet'],
  ['validate', 'runtime.jsonnet'],
];

const same = (got: RunResult, want: RunResult, what: string): void => {
  assert.equal(got.stdout, want.stdout, `${what}: stdout`);
  assert.equal(got.stderr, want.stderr, `${what}: stderr`);
  assert.equal(got.code, want.code, `${what}: exit code`);
};

describe(
  'the in-process engine answers as the daemon does',
  { skip: !BUILT && 'run npm run build first', timeout: 120_000 },
  () => {
    let sb: Sandbox;
    before(() => {
      sb = new Sandbox();
      writeInputs(sb.work);
    });
    after(() => sb.cleanup());

    it("--no-daemon gives the daemon path's stdout, stderr and exit code", async () => {
      const viaDaemon: RunResult[] = [];
      for (const args of cases) viaDaemon.push(await sb.run(args));
      for (const [i, args] of cases.entries()) {
        const oneshot = await sb.run(['--no-daemon', ...args]);
        same(oneshot, viaDaemon[i]!, `kubecfg ${args.join(' ')}`);
      }
      assert.equal(viaDaemon[0]!.code, 0);
      assert.match(viaDaemon[6]!.stderr, /too big: 3/);
      assert.equal(viaDaemon[6]!.code, 1);
    });

    it('reports a failure inside a command as the daemon does, not as an interruption', async () => {
      const file = hookFile(sb, 'bug', 'throw something broke');
      const viaDaemon = await sb.run(['show', file]);
      const oneshot = await sb.run(['--no-daemon', 'show', file]);
      assert.equal(viaDaemon.stderr, 'kubecfg: internal error in render/show: something broke\n');
      assert.equal(viaDaemon.code, 1);
      same(oneshot, viaDaemon, 'throw hook');
    });
  },
);

describe(
  'the first call renders in the CLI and starts the daemon',
  { skip: !BUILT && 'run npm run build first', timeout: 120_000 },
  () => {
    // Without the test hooks: they keep the daemon tests on the daemon path (client-cli/main.ts).
    let sb: Sandbox;
    before(() => {
      sb = new Sandbox({ KUBECFG_DAEMON_TEST_HOOKS: '0' });
      writeInputs(sb.work);
    });
    after(() => sb.cleanup());

    for (const args of [cases[0]!, cases[4]!, cases[5]!, cases[7]!]) {
      it(`kubecfg ${args.join(' ')}: the --no-daemon answer, then a daemon serves the next call`, async () => {
        const oneshot = await sb.run(['--no-daemon', ...args]);
        assert.deepEqual(sb.daemonPids(), [], 'no daemon before the first call');
        const first = await sb.run(args);
        same(first, oneshot, 'first call');
        const pid = await waitFor('the daemon started by the first call', async () => {
          try {
            return ((await rpc(sb.socket, 'daemon/status', {})).result as { pid?: number }).pid;
          } catch {
            return undefined;
          }
        });
        const served = (await rpc(sb.socket, 'daemon/status', {})).result.requestsServed as number;
        const second = await sb.run(args);
        same(second, oneshot, 'second call, through the daemon');
        const now = (await rpc(sb.socket, 'daemon/status', {})).result.requestsServed as number;
        // + 1 for the second call, + 1 for the status request that reads the counter.
        assert.equal(now, served + 2, 'the daemon served the second call');
        const stop = await sb.run(['daemon', 'stop']);
        assert.equal(stop.code, 0, stop.stderr);
        await waitFor('the daemon to exit', () => !sb.daemonPids().includes(pid) || undefined);
      });
    }
  },
);
