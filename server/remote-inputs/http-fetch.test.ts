// The http(s) import transport against local servers: the SSRF refusal without the allow-list and
// success with it (127.0.0.1 allow-listed explicitly), the check repeated on every redirect, the
// redirect limit, credentials kept to the URL's own origin, the body cap, and error texts that
// carry neither credentials nor bodies.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createHttpFetcher, displayUrl, MAX_REDIRECTS } from './http-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(host: string, handler: Handler): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, base: `http://${host}:${(server.address() as AddressInfo).port}` };
}

describe('http import transport', () => {
  let a: { server: Server; base: string };
  let b: { server: Server; base: string } | undefined;
  const authSeen: Record<string, string | undefined> = {};
  before(async () => {
    a = await listen('127.0.0.1', (req, res) => {
      authSeen[`a${req.url}`] = req.headers.authorization;
      if (req.url === '/lib.libsonnet') return void res.end('{ a: 1 }');
      if (req.url === '/to-metadata')
        return void res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      if (req.url === '/to-other-loopback')
        return void res.writeHead(302, { location: `http://127.0.0.2:${new URL(a.base).port}/lib.libsonnet` }).end();
      if (req.url === '/to-b') return void res.writeHead(301, { location: `${b?.base}/echo` }).end();
      if (req.url?.startsWith('/loop')) return void res.writeHead(302, { location: '/loop' + req.url }).end();
      if (req.url === '/big') return void res.end('x'.repeat(2048));
      if (req.url === '/error') return void res.writeHead(500).end('stack trace with secrets');
      res.writeHead(404).end();
    });
    try {
      b = await listen('127.0.0.2', (req, res) => {
        authSeen[`b${req.url}`] = req.headers.authorization;
        res.end("'from b'");
      });
    } catch {
      b = undefined; // 127.0.0.2 not routable here: the cross-host test skips
    }
  });
  after(() => {
    a.server.close();
    b?.server.close();
  });

  const get = async (url: string, allowHosts: string[], maxBytes?: number) => {
    const f = createHttpFetcher({ allowHosts, ...(maxBytes ? { maxBytes } : {}) });
    try {
      return await f.transport(url, {});
    } finally {
      await f.close();
    }
  };

  test('loopback is refused without an allow-list entry', async () => {
    await assert.rejects(get(`${a.base}/lib.libsonnet`, []), (e: Error) => {
      assert.match(e.message, /refused: 127\.0\.0\.1 is a loopback address/);
      assert.match(e.message, /--allow-import-host 127\.0\.0\.1/);
      return true;
    });
  });

  test('localhost is refused after DNS resolution', async () => {
    const port = new URL(a.base).port;
    await assert.rejects(get(`http://localhost:${port}/lib.libsonnet`, []), /refused: localhost \(.*\) is a loopback/);
  });

  test('an allow-listed host is fetched', async () => {
    const res = await get(`${a.base}/lib.libsonnet`, ['127.0.0.1']);
    assert.equal(res.status, 200);
    assert.equal(new TextDecoder().decode(res.body), '{ a: 1 }');
  });

  test('every redirect hop is checked again', async () => {
    await assert.rejects(get(`${a.base}/to-metadata`, ['127.0.0.1']), /169\.254\.169\.254 is a link-local address/);
    await assert.rejects(get(`${a.base}/to-other-loopback`, ['127.0.0.1']), /127\.0\.0\.2 is a loopback address/);
  });

  test(`more than ${MAX_REDIRECTS} redirects fail`, async () => {
    await assert.rejects(get(`${a.base}/loop`, ['127.0.0.1']), /more than 5 redirects/);
  });

  test('credentials go only to the URL origin, never to a redirect target', async (t) => {
    if (!b) return t.skip('127.0.0.2 is not available');
    const url = new URL(`${a.base}/to-b`);
    url.username = 'user';
    url.password = 's3cret';
    const res = await get(url.href, ['127.0.0.1', '127.0.0.2']);
    assert.equal(new TextDecoder().decode(res.body), "'from b'");
    assert.equal(authSeen['a/to-b'], `Basic ${Buffer.from('user:s3cret').toString('base64')}`);
    assert.equal(authSeen['b/echo'], undefined);
  });

  test('the body cap stops a large response', async () => {
    await assert.rejects(get(`${a.base}/big`, ['127.0.0.1'], 1024), /response larger than 1024 bytes/);
  });

  test('an error status keeps its body out of the answer', async () => {
    const res = await get(`${a.base}/error`, ['127.0.0.1']);
    assert.equal(res.status, 500);
    assert.equal(res.body.byteLength, 0);
  });

  test('displayUrl drops credentials and fragments', () => {
    assert.equal(displayUrl('https://u:p@example.com/x#frag'), 'https://example.com/x');
  });
});
