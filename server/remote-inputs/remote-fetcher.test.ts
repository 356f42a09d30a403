// The round loop of RemoteInputs with scripted renders (no worker, no network: the needs point at
// a loopback address that is refused before connecting): a render needing nothing runs once, each
// need is fetched into the snapshot once, the loop stops after MAX_ROUNDS, and a cancelled request
// stops fetching.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommandOutcome } from '../worker/messages.js';
import { MAX_ROUNDS, RemoteInputs } from './remote-fetcher.js';
import type { RemoteNeed, RemoteSnapshot } from './remote-types.js';

const policy = { allowHosts: [], insecureRegistries: [], ociTagTtlMs: 1000 };
const outcome = (needs: RemoteNeed[]): CommandOutcome => ({
  exitCode: 0,
  stdout: 'out',
  stderr: '',
  deps: [],
  cacheable: true,
  ...(needs.length ? { remote: { needs, deps: [], policy } } : {}),
});

test('a render that needs nothing runs once', async () => {
  let runs = 0;
  const r = await new RemoteInputs().run(async () => (runs++, outcome([])));
  assert.equal(runs, 1);
  assert.equal(r.stdout, 'out');
});

test('needs are fetched into the snapshot and the render runs again', async () => {
  const seen: RemoteSnapshot[] = [];
  const url = 'http://127.0.0.1:9/x.libsonnet';
  const r = await new RemoteInputs().run(async (snapshot) => {
    seen.push({ ...snapshot });
    return outcome(snapshot[`http ${url}`] ? [] : [{ kind: 'http', url }]);
  });
  assert.equal(seen.length, 2);
  const entry = seen[1]![`http ${url}`];
  assert.ok(entry?.kind === 'http' && entry.status === 'error');
  assert.match(entry.status === 'error' ? entry.message : '', /127\.0\.0\.1 is a loopback address/);
  assert.equal(r.exitCode, 0);
});

test(`the loop stops after ${MAX_ROUNDS} rounds`, async () => {
  let runs = 0;
  const r = await new RemoteInputs().run(async () => {
    runs++;
    return outcome([{ kind: 'http', url: `http://127.0.0.1:9/${runs}.libsonnet` }]);
  });
  assert.equal(runs, MAX_ROUNDS);
  assert.equal(r.exitCode, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.cacheable, false);
  assert.match(r.stderr, /remote imports still missing after 16 fetch rounds/);
});

test('a cancelled request stops fetching', async () => {
  const ctl = new AbortController();
  ctl.abort();
  let runs = 0;
  const r = await new RemoteInputs().run(async () => {
    runs++;
    return outcome([{ kind: 'http', url: 'http://127.0.0.1:9/y' }]);
  }, ctl.signal);
  assert.equal(runs, 1);
  assert.equal(r.cacheable, false);
});
