// The strict allow-list of the remote render service (onlyAllowedHosts): only listed hosts, by
// name or resolved address, are reached at all, public or private; each redirect hop is checked;
// and strictHostRefusal answers the same for registries before anything is fetched or read from disk.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { connectRefusal, createHttpFetcher, strictHostRefusal } from './http-fetch.js';

describe('strict import hosts', () => {
  let server: Server;
  let base = '';
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hop') return void res.writeHead(302, { location: `http://127.0.0.2:${port()}/x` }).end();
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${port()}`;
  });
  after(() => void server.close());
  const port = (): number => (server.address() as AddressInfo).port;

  const cases: [string, string[], string, RegExp | 'ok'][] = [
    ['listed address', ['127.0.0.1'], '/x', 'ok'],
    ['empty list: no network at all', [], '/x', /127\.0\.0\.1 is not one of the import hosts/],
    ['another listed host does not open this one', ['example.com'], '/x', /not one of the import hosts/],
    ['a redirect to an unlisted host', ['127.0.0.1'], '/hop', /127\.0\.0\.2 is not one of the import hosts/],
  ];
  for (const [what, allowHosts, path, want] of cases)
    test(what, async () => {
      const fetcher = createHttpFetcher({ allowHosts, onlyAllowedHosts: true });
      try {
        const attempt = fetcher.transport(base + path, {});
        if (want === 'ok') assert.equal((await attempt).status, 200);
        else await assert.rejects(attempt, want);
      } finally {
        await fetcher.close();
      }
    });

  test('connectRefusal: strict refuses public addresses too; the default rule only blocked ones', () => {
    assert.match(connectRefusal([], true, 'example.com', '93.184.216.34') ?? '', /not one of the import hosts/);
    assert.equal(connectRefusal([], false, 'example.com', '93.184.216.34'), undefined);
    assert.match(connectRefusal([], false, '10.0.0.1', '10.0.0.1') ?? '', /private address/);
    assert.equal(connectRefusal(['internal.example'], true, 'internal.example', '10.0.0.1'), undefined);
    assert.equal(connectRefusal(['10.0.0.1'], true, 'any.example', '10.0.0.1'), undefined, 'listed by address');
  });

  test('strictHostRefusal (registries): listed names and addresses pass, anything else is refused', async () => {
    assert.equal(await strictHostRefusal(['127.0.0.1'], '127.0.0.1'), undefined);
    assert.equal(await strictHostRefusal(['LocalHost'], 'localhost'), undefined);
    assert.match((await strictHostRefusal([], '127.0.0.1')) ?? '', /not one of the import hosts/);
    assert.match((await strictHostRefusal(['127.0.0.1'], '[::1]')) ?? '', /::1 is not one of the import hosts/);
    assert.match((await strictHostRefusal([], 'no-such-host.invalid')) ?? '', /not one of the import hosts/);
  });
});
