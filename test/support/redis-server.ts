/**
 * A real redis-server (Debian's package, installed by .ci/run) on a free
 * loopback port, for the remote fleet tests and bench: no persistence, a
 * memory cap with LRU eviction as a deployment would set it. `stop()` kills
 * it (an outage); `start()` again brings it back on the same port.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export class RedisServer {
  private proc: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    for (let attempt = 0; ; attempt++) {
      const server = new RedisServer(await freePort());
      try {
        await server.start();
        return server;
      } catch (err) {
        if (attempt >= 4) throw err;
      }
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory',
        '64mb',
        '--maxmemory-policy',
        'allkeys-lru',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.proc = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (c: string): void => {
        out += c;
        if (out.includes('Ready to accept connections')) resolve();
      };
      proc.stdout.setEncoding('utf8').on('data', onData);
      proc.stderr.setEncoding('utf8').on('data', onData);
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  }

  /** Kills the server at once (SIGKILL): what an outage looks like to its clients. */
  async stop(): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
  }
}
