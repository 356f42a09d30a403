/**
 * Hazard 30: the optional TCP listener. The token file is 0600 with ≥128
 * random bits; requests without the token, with a wrong one or one of the
 * wrong length, and browser-style cross-origin requests are refused before
 * the body is parsed; the token never reaches the log.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, httpRequest, rpc, Sandbox } from './harness.js';

describe('TCP listener', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  let port: number;
  let token: string;
  before(async () => {
    sb = new Sandbox();
    const r = await sb.run(['daemon', 'start', '--listen', '127.0.0.1:0', '--workers', '1']);
    assert.equal(r.code, 0, r.stderr);
    const st = (await rpc(sb.socket, 'daemon/status', {})).result;
    assert.match(st.tcpListen, /^127\.0\.0\.1:\d+$/);
    port = Number(st.tcpListen.split(':')[1]);
    token = readFileSync(join(sb.daemonDir, 'tcp-token'), 'utf8').trim();
  });
  after(() => sb.cleanup());

  const hello = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'daemon/hello',
    params: { protocolVersion: 1, buildId: 'x' },
  });

  it('keeps a 0600 token of at least 128 random bits', () => {
    assert.equal(statSync(join(sb.daemonDir, 'tcp-token')).mode & 0o777, 0o600);
    assert.match(token, /^[0-9a-f]{64}$/);
  });

  const refused: { name: string; headers: () => Record<string, string>; status: number }[] = [
    { name: 'no token', headers: () => ({}), status: 401 },
    {
      name: 'a wrong token of the right length',
      headers: () => ({ authorization: `Bearer ${'0'.repeat(64)}` }),
      status: 401,
    },
    {
      name: 'a token of the wrong length',
      headers: () => ({ authorization: `Bearer ${token.slice(0, 10)}` }),
      status: 401,
    },
    { name: 'the token plus extra characters', headers: () => ({ authorization: `Bearer ${token}00` }), status: 401 },
    { name: 'another scheme', headers: () => ({ authorization: `Basic ${token}` }), status: 401 },
    {
      name: 'a cross-origin browser request with the token',
      headers: () => ({ authorization: `Bearer ${token}`, origin: 'http://evil.example' }),
      status: 403,
    },
  ];
  for (const c of refused) {
    it(`refuses ${c.name} before parsing the body`, async () => {
      // The body is not JSON: a parse error (-32700) would prove the body was read and parsed.
      const reply = await httpRequest({ host: '127.0.0.1', port }, { body: '{not json', headers: c.headers() });
      assert.equal(reply.status, c.status);
      assert.doesNotMatch(reply.body, /-32700/);
      const metrics = await httpRequest(
        { host: '127.0.0.1', port },
        { method: 'GET', path: '/metrics', headers: c.headers() },
      );
      assert.equal(metrics.status, c.status);
    });
  }

  it('serves a request carrying the token', async () => {
    const reply = await httpRequest(
      { host: '127.0.0.1', port },
      { body: hello, headers: { authorization: `Bearer ${token}` } },
    );
    assert.equal(reply.status, 200);
    assert.equal(JSON.parse(reply.body).result.protocolVersion, 1);
  });

  it('refuses an object or array id with -32600 instead of echoing it', async () => {
    for (const id of [{ x: 1 }, [1, 2]]) {
      const reply = await httpRequest(
        { host: '127.0.0.1', port },
        {
          body: JSON.stringify({ jsonrpc: '2.0', id, method: 'daemon/status', params: {} }),
          headers: { authorization: `Bearer ${token}` },
        },
      );
      assert.deepEqual(JSON.parse(reply.body), {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: id must be a string, a number or null' },
      });
    }
  });

  it('never writes the token to the log', () => {
    assert.doesNotMatch(readFileSync(sb.logFile, 'utf8'), new RegExp(token));
  });
});
