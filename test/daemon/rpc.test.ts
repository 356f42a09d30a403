/**
 * The JSON-RPC boundary of a real daemon: malformed JSON, invalid requests,
 * unknown methods, params that fail validation (-32602 naming the field),
 * duplicate request ids, health and metrics endpoints.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BUILT, commandParams, httpRequest, rpc, Sandbox } from './harness.js';

describe('daemon JSON-RPC boundary', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  before(async () => {
    sb = new Sandbox();
    const r = await sb.run(['daemon', 'start', '--workers', '1']);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => sb.cleanup());

  const cases: { name: string; body: string; code: number; message?: RegExp }[] = [
    { name: 'malformed JSON', body: '{"jsonrpc": "2.0", "id": 1, "method": ', code: -32700 },
    { name: 'empty body', body: '', code: -32700 },
    { name: 'not a request object', body: '42', code: -32600 },
    { name: 'missing jsonrpc version', body: '{"id": 1, "method": "daemon/status"}', code: -32600 },
    { name: 'unknown method', body: '{"jsonrpc":"2.0","id":1,"method":"daemon/explode","params":{}}', code: -32601 },
    {
      name: 'hello without buildId',
      body: '{"jsonrpc":"2.0","id":1,"method":"daemon/hello","params":{"protocolVersion":1}}',
      code: -32602,
      message: /params\.buildId: missing required field/,
    },
    {
      name: 'hello with a string version',
      body: '{"jsonrpc":"2.0","id":1,"method":"daemon/hello","params":{"protocolVersion":"1","buildId":"x"}}',
      code: -32602,
      message: /params\.protocolVersion: expected an integer/,
    },
    {
      name: 'status with an unknown field',
      body: '{"jsonrpc":"2.0","id":1,"method":"daemon/status","params":{"verbose":true}}',
      code: -32602,
      message: /params\.verbose: unknown field/,
    },
    {
      name: 'cancel without requestId',
      body: '{"jsonrpc":"2.0","id":1,"method":"request/cancel","params":{}}',
      code: -32602,
      message: /params\.requestId/,
    },
  ];
  it('refuses an object or array id with -32600 and a null id, alone or in a batch', async () => {
    const bad = 'Invalid Request: id must be a string, a number or null';
    const refusal = { jsonrpc: '2.0', id: null, error: { code: -32600, message: bad } };
    for (const [name, id] of [
      ['object', { evil: 'reflected' }],
      ['array', ['reflected']],
    ] as const) {
      for (const method of ['daemon/status', 'render/show']) {
        const reply = await httpRequest(
          { socketPath: sb.socket },
          { body: JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }) },
        );
        assert.deepEqual(JSON.parse(reply.body), refusal, `${name} id on ${method}`);
      }
    }
    const batch = await httpRequest(
      { socketPath: sb.socket },
      {
        body: JSON.stringify([
          { jsonrpc: '2.0', id: { evil: 1 }, method: 'daemon/status', params: {} },
          { jsonrpc: '2.0', id: 7, method: 'daemon/status', params: {} },
        ]),
      },
    );
    const replies = JSON.parse(batch.body) as { id: unknown; error?: unknown; result?: unknown }[];
    assert.equal(replies.length, 2, batch.body);
    assert.deepEqual(
      replies.find((r) => r.id === null),
      refusal,
    );
    assert.ok(replies.find((r) => r.id === 7)?.result, batch.body);
    assert.doesNotMatch(batch.body, /evil/);
  });

  for (const c of cases) {
    it(`answers ${c.code} for ${c.name}`, async () => {
      const reply = await httpRequest({ socketPath: sb.socket }, { body: c.body });
      const msg = JSON.parse(reply.body);
      assert.equal(msg.error?.code, c.code, reply.body);
      if (c.message) assert.match(msg.error.message, c.message);
    });
  }

  it('validates command params and names the bad field', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [
        { ...commandParams(sb, 'r1', ['a.jsonnet']), flags: { bogus: true } },
        /params\.flags\.bogus: unknown flag for show/,
      ],
      [
        { ...commandParams(sb, 'r2', ['a.jsonnet']), flags: { format: 'xml' } },
        /params\.flags\.format: expected one of yaml, json/,
      ],
      [
        { ...commandParams(sb, 'r3', ['a.jsonnet']), flags: { jpath: 'lib' } },
        /params\.flags\.jpath: expected an array/,
      ],
      [{ ...commandParams(sb, 'r4', []), args: [7] }, /params\.args\[0\]: expected a string/],
      [{ ...commandParams(sb, 'r5', []), tty: { color: 'auto' } }, /params\.tty\.stdoutIsTTY: missing required field/],
    ];
    for (const [params, message] of bad) {
      const msg = await rpc(sb.socket, 'render/show', params);
      assert.equal(msg.error?.code, -32602, JSON.stringify(msg));
      assert.match(msg.error.message, message);
    }
  });

  it('answers hello with compatibility and status with counters', async () => {
    const hello = await rpc(sb.socket, 'daemon/hello', { protocolVersion: 1, buildId: 'someone-else' });
    assert.equal(hello.result.compatible, false);
    assert.equal(typeof hello.result.pid, 'number');
    const status = await rpc(sb.socket, 'daemon/status', {});
    assert.equal(status.result.workers.length, 1);
    assert.equal(status.result.socketPath, sb.socket);
  });

  it('cancel of an unknown request says so', async () => {
    const msg = await rpc(sb.socket, 'request/cancel', { requestId: 'nope' });
    assert.deepEqual(msg.result, { cancelled: false });
  });

  it('serves /healthz and /metrics', async () => {
    const health = await httpRequest({ socketPath: sb.socket }, { method: 'GET', path: '/healthz' });
    assert.equal(health.body, 'ok\n');
    const metrics = await httpRequest({ socketPath: sb.socket }, { method: 'GET', path: '/metrics' });
    assert.match(metrics.body, /kubecfg_requests_total\{method="daemon\/hello",outcome="ok"\} \d+/);
    assert.match(metrics.body, /kubecfg_cache_hits_total \d+/);
    assert.match(metrics.body, /kubecfg_watched_files \d+/);
    assert.match(metrics.body, /kubecfg_heap_used_bytes \d+/);
  });
});
