import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BodyDecoder, postOverSocket } from './socket-http.js';
import { ConnectError, RpcCallError, rpcCall, rpcStream, StreamBrokenError } from './connection.js';

const root = mkdtempSync('/tmp/kcfg-sh-');
after(() => rmSync(root, { recursive: true, force: true }));
let sockets = 0;

/** A node:http server (what the daemon's fastify runs on) on a fresh unix socket. */
async function serve(
  handler: (req: IncomingMessage, body: string, res: ServerResponse) => void,
): Promise<{ socket: string; close: () => void }> {
  const socket = join(root, `s${sockets++}.sock`);
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((r) => server.listen(socket, r));
  return { socket, close: () => server.close() };
}

function post(socket: string, body: string, timeoutMs: number | null = null) {
  return new Promise<{ status: number; body: string; error?: string; connected?: boolean }>((resolve) => {
    const parts: Buffer[] = [];
    let status = 0;
    postOverSocket(
      socket,
      '/rpc',
      body,
      {
        onHead: (s) => (status = s),
        onBody: (c) => parts.push(Buffer.from(c)),
        onEnd: () => resolve({ status, body: Buffer.concat(parts).toString('utf8') }),
        onError: (err, connected) =>
          resolve({ status, body: Buffer.concat(parts).toString('utf8'), error: err.code, connected }),
      },
      timeoutMs,
    );
  });
}

describe('BodyDecoder', () => {
  const text = 'héllo wörld ☃ 𝄞 end';
  const bytes = Buffer.from(text, 'utf8');
  const chunked = Buffer.concat([
    Buffer.from(`5;ext=1\r\n`),
    bytes.subarray(0, 5),
    Buffer.from(`\r\n${(bytes.length - 5).toString(16).toUpperCase()}\r\n`),
    bytes.subarray(5),
    Buffer.from('\r\n0\r\n\r\n'),
  ]);
  const cases: [string, [string, string][], Buffer][] = [
    ['chunked', [['transfer-encoding', 'chunked']], chunked],
    ['content-length', [['content-length', String(bytes.length)]], Buffer.concat([bytes, Buffer.from('extra')])],
  ];
  for (const [name, headers, wire] of cases) {
    it(`${name}: the same bytes whatever the packet boundaries`, () => {
      for (let cut = 0; cut <= wire.length; cut++) {
        const out: Buffer[] = [];
        const d = new BodyDecoder((c) => out.push(Buffer.from(c)));
        d.start(new Map(headers));
        d.push(wire.subarray(0, cut));
        d.push(wire.subarray(cut));
        assert.equal(d.done, true, `cut ${cut}`);
        assert.equal(Buffer.concat(out).toString('utf8'), text, `cut ${cut}`);
      }
    });
  }

  it('byte by byte through a chunked body', () => {
    const out: Buffer[] = [];
    const d = new BodyDecoder((c) => out.push(Buffer.from(c)));
    d.start(new Map([['transfer-encoding', 'chunked']]));
    for (let i = 0; i < chunked.length; i++) d.push(chunked.subarray(i, i + 1));
    assert.equal(Buffer.concat(out).toString('utf8'), text);
  });

  const bad: [string, [string, string][], string, RegExp][] = [
    ['a chunk size that is not hex', [['transfer-encoding', 'chunked']], 'zz\r\n', /bad chunk size/],
    ['a chunk longer than announced', [['transfer-encoding', 'chunked']], '1\r\nab\r\n', /longer than announced/],
    ['a negative content-length', [['content-length', '-1']], '', /bad content-length/],
  ];
  for (const [name, headers, wire, message] of bad) {
    it(`refuses ${name}`, () => {
      const d = new BodyDecoder(() => undefined);
      assert.throws(() => {
        d.start(new Map(headers));
        d.push(Buffer.from(wire));
      }, message);
    });
  }
});

describe('postOverSocket and the JSON-RPC calls over it', () => {
  it('reads a content-length answer and sends the body intact', async () => {
    const s = await serve((req, body, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
    try {
      const r = await post(s.socket, 'ünïcode ☃');
      assert.equal(r.status, 200);
      assert.deepEqual(JSON.parse(r.body), { method: 'POST', url: '/rpc', body: 'ünïcode ☃' });
    } finally {
      s.close();
    }
  });

  it('streams NDJSON lines split anywhere, multi-byte characters included', async () => {
    const data = 'kind: Config\ndata: ☃𝄞\n'.repeat(2000);
    const s = await serve((_req, body, res) => {
      const { id } = JSON.parse(body) as { id: number };
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line =
        JSON.stringify({ jsonrpc: '2.0', method: 'stream/output', params: { stream: 'stdout', data } }) + '\n';
      const bytes = Buffer.from(line + line);
      // Odd-sized writes cut lines and UTF-8 sequences at arbitrary places.
      for (let i = 0; i < bytes.length; i += 4099) res.write(bytes.subarray(i, i + 4099));
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { exitCode: 4 } }) + '\n');
    });
    try {
      const got: string[] = [];
      const h = rpcStream<{ exitCode: number }>(s.socket, 'render/show', {}, (_m, p) =>
        got.push((p as { data: string }).data),
      );
      assert.deepEqual(await h.done, { exitCode: 4 });
      assert.deepEqual(got, [data, data]);
    } finally {
      s.close();
    }
  });

  it('rpcCall: result, JSON-RPC error, and a body that is not JSON', async () => {
    const answers = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { ok: true } }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -31996, message: 'skew', data: { pid: 1 } } }),
      'Service Unavailable',
    ];
    const s = await serve((_req, _body, res) => res.end(answers.shift()));
    try {
      assert.deepEqual(await rpcCall(s.socket, 'daemon/hello', {}), { ok: true });
      await assert.rejects(rpcCall(s.socket, 'daemon/hello', {}), (e: unknown) => {
        assert.ok(e instanceof RpcCallError);
        assert.deepEqual([e.code, e.message, e.data], [-31996, 'skew', { pid: 1 }]);
        return true;
      });
      await assert.rejects(rpcCall(s.socket, 'daemon/hello', {}), /answered HTTP 200 with a body that is not JSON/);
    } finally {
      s.close();
    }
  });

  it('no daemon: ConnectError, for calls and streams', async () => {
    const missing = join(root, 'nobody.sock');
    await assert.rejects(rpcCall(missing, 'daemon/hello', {}), (e: unknown) => e instanceof ConnectError);
    await assert.rejects(
      rpcStream(missing, 'render/show', {}, () => undefined).done,
      (e: unknown) => e instanceof ConnectError && e.code === 'ENOENT',
    );
  });

  it('a daemon that dies mid-answer: StreamBrokenError, with the lines before it delivered', async () => {
    const s = await serve((_req, _body, res) => {
      res.writeHead(200);
      res.write(JSON.stringify({ jsonrpc: '2.0', method: 'stream/output', params: { data: 'a' } }) + '\n');
      setImmediate(() => res.socket?.destroy());
    });
    try {
      const got: unknown[] = [];
      const h = rpcStream(s.socket, 'render/show', {}, (_m, p) => got.push(p));
      await assert.rejects(h.done, (e: unknown) => e instanceof StreamBrokenError);
      assert.deepEqual(got, [{ data: 'a' }]);
    } finally {
      s.close();
    }
  });

  it('abort() settles the stream (the CLI exits with its own code, never 0 by accident)', async () => {
    const s = await serve((_req, _body, res) => res.writeHead(200).write('\n'));
    try {
      const h = rpcStream(s.socket, 'render/show', {}, () => undefined);
      setTimeout(() => h.abort(), 10);
      await assert.rejects(h.done, (e: unknown) => e instanceof StreamBrokenError);
    } finally {
      s.close();
    }
  });

  it('a call that gets no answer times out as a ConnectError', async () => {
    const s = await serve(() => undefined);
    try {
      await assert.rejects(
        rpcCall(s.socket, 'daemon/hello', {}, 50),
        (e: unknown) => e instanceof ConnectError && e.code === 'ETIMEDOUT',
      );
    } finally {
      s.close();
    }
  });
});

describe('rpcStream, framed output (raw bytes after a stream/bytes line)', () => {
  const out = Buffer.from('kind: ConfigMap\ndata: {a: "é☃𝄞\\n"}\n'.repeat(50), 'utf8');
  const err = Buffer.from('warning: ünïcode\n', 'utf8');
  const frame = (stream: string, bytes: Buffer): Buffer =>
    Buffer.concat([
      Buffer.from(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'stream/bytes',
          params: { requestId: 'r', stream, length: bytes.length },
        }) + '\n',
      ),
      bytes,
    ]);
  const wire = Buffer.concat([
    frame('stdout', out.subarray(0, 7)),
    frame('stderr', err),
    frame('stdout', out.subarray(7)),
    Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { exitCode: 3, cached: true } }) + '\n'),
  ]);

  // The body is cut into pieces of every size from 1 byte up, so frame lines and raw bytes split everywhere.
  for (const piece of [1, 2, 5, 64, 1000, wire.length]) {
    it(`pieces of ${piece} bytes: the same bytes per stream, in order, and the result`, async () => {
      let accept: string | undefined;
      const s = await serve((req, _body, res) => {
        accept = req.headers.accept;
        res.writeHead(200, { 'content-type': 'application/x-kubecfg-frames' });
        let i = 0;
        const next = (): void => {
          if (i >= wire.length) return void res.end();
          res.write(wire.subarray(i, (i += piece)), () => setImmediate(next));
        };
        next();
      });
      try {
        const got = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
        const h = rpcStream<{ exitCode: number }>(
          s.socket,
          'render/show',
          {},
          () => assert.fail('no notification expected'),
          (stream, data) => got[stream].push(Buffer.from(data)),
        );
        assert.deepEqual(await h.done, { exitCode: 3, cached: true });
        assert.equal(accept, 'application/x-kubecfg-frames');
        assert.ok(Buffer.concat(got.stdout).equals(out));
        assert.ok(Buffer.concat(got.stderr).equals(err));
      } finally {
        s.close();
      }
    });
  }

  it('without a bytes handler no framed stream is asked for', async () => {
    let accept: string | undefined = 'unset';
    const s = await serve((req, _body, res) => {
      accept = req.headers.accept;
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { exitCode: 0 } }) + '\n');
    });
    try {
      await rpcStream(s.socket, 'render/show', {}, () => undefined).done;
      assert.equal(accept, undefined);
    } finally {
      s.close();
    }
  });

  it('a bad frame line is an error naming it, not a hang', async () => {
    const s = await serve((_req, _body, res) =>
      res.end(
        JSON.stringify({ jsonrpc: '2.0', method: 'stream/bytes', params: { stream: 'stdout', length: -1 } }) + '\n',
      ),
    );
    try {
      const h = rpcStream(
        s.socket,
        'render/show',
        {},
        () => undefined,
        () => undefined,
      );
      await assert.rejects(h.done, /bad output frame/);
    } finally {
      s.close();
    }
  });
});
