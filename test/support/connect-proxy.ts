/**
 * A small HTTP CONNECT proxy on loopback for tests: it counts its tunnels
 * (host:port of each CONNECT, in order) and connects every host to
 * 127.0.0.1, so a test can name a server `kube.test:PORT` and prove the
 * request went through the proxy (the name resolves nowhere else).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface CountingProxy {
  readonly url: string;
  /** host:port of every CONNECT, in order. */
  readonly tunnels: string[];
  close(): Promise<void>;
}

export async function startProxy(): Promise<CountingProxy> {
  const tunnels: string[] = [];
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
