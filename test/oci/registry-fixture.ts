// Starts a real CNCF distribution registry (Debian's /usr/bin/docker-registry) on a free loopback
// port with its own config in a temp dir: plain HTTP, or htpasswd basic auth behind TLS with a
// test CA made by openssl. The bcrypt htpasswd line comes from perl's crypt() (libxcrypt supports
// $2b$), since node has no bcrypt and apache2-utils may be absent.
// Invariants: stop() kills the registry process it started and removes the temp dir.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';

const REGISTRY_BINARY = '/usr/bin/docker-registry';

/** Why real-registry tests cannot run here, or undefined when they can. */
export function registrySkipReason(opts: { tls?: boolean } = {}): string | undefined {
  if (!existsSync(REGISTRY_BINARY)) return `${REGISTRY_BINARY} not installed (apt-get install docker-registry)`;
  if (opts.tls === true) {
    if (!hasProgram('openssl')) return 'openssl not installed';
    if (!hasProgram('perl')) return 'perl not installed (needed for the bcrypt htpasswd line)';
  }
  return undefined;
}

function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface TestRegistry {
  /** "127.0.0.1:PORT", the registry name to use in references. */
  host: string;
  /** PEM of the CA that signed the TLS certificate (TLS instances only). */
  caPem?: string;
  username?: string;
  password?: string;
  stop(): Promise<void>;
}

export interface TestRegistryOptions {
  /** htpasswd basic auth + TLS with a fresh test CA. */
  secure?: boolean;
  /**
   * Bearer token auth (plain HTTP): the registry trusts tokens signed by a test key whose
   * self-signed certificate is written here; the test runs the token server (token-server.ts).
   */
  token?: { realm: string; service: string; issuer: string; certPem: string };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function makeTls(dir: string): { cert: string; key: string; caPem: string } {
  const run = (args: string[]): void => {
    execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  };
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=kubecfg-test-ca',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  ]);
  run([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  ]);
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
    '-out',
    'server.pem',
  ]);
  return {
    cert: join(dir, 'server.pem'),
    key: join(dir, 'server.key'),
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
  };
}

function bcryptLine(username: string, password: string): string {
  const salt = randomBytes(16)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, 'a')
    .slice(0, 22);
  // $2b$ cost 5: fast enough for tests; perl's crypt() goes to libxcrypt, which implements bcrypt.
  const hash = execFileSync('perl', ['-e', 'print crypt($ARGV[0], $ARGV[1])', password, `$2b$05$${salt}`], {
    encoding: 'utf8',
  });
  if (!hash.startsWith('$2b$')) throw new Error('this libc crypt() does not support bcrypt');
  return `${username}:${hash}\n`;
}

export async function startTestRegistry(opts: TestRegistryOptions = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'kubecfg-registry-'));
  let child: ChildProcess | undefined;
  try {
    const secure = opts.secure === true;
    let tlsBlock = '';
    let authBlock = '';
    let caPem: string | undefined;
    const username = 'tester';
    const password = randomBytes(12).toString('hex');
    if (opts.token !== undefined) {
      writeFileSync(join(dir, 'token-ca.pem'), opts.token.certPem);
      authBlock =
        `auth:\n  token:\n    realm: ${opts.token.realm}\n    service: ${opts.token.service}\n` +
        `    issuer: ${opts.token.issuer}\n    rootcertbundle: ${join(dir, 'token-ca.pem')}\n`;
    }
    if (secure) {
      const tls = makeTls(dir);
      caPem = tls.caPem;
      tlsBlock = `  tls:\n    certificate: ${tls.cert}\n    key: ${tls.key}\n`;
      writeFileSync(join(dir, 'htpasswd'), bcryptLine(username, password));
      authBlock = `auth:\n  htpasswd:\n    realm: kubecfg-test\n    path: ${join(dir, 'htpasswd')}\n`;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const config =
        'version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n' +
        `storage:\n  filesystem:\n    rootdirectory: ${join(dir, 'data')}\n  delete:\n    enabled: true\n` +
        `http:\n  addr: 127.0.0.1:${port}\n  secret: ${randomBytes(16).toString('hex')}\n${tlsBlock}` +
        authBlock;
      writeFileSync(join(dir, 'config.yml'), config);
      child = spawn(REGISTRY_BINARY, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'ignore', 'pipe'] });
      let exited = false;
      child.once('exit', () => (exited = true));
      child.stderr?.resume();
      const host = `127.0.0.1:${port}`;
      if (await waitReady(host, caPem, () => exited)) {
        const started = child;
        return {
          host,
          ...(caPem === undefined ? {} : { caPem, username, password }),
          stop: async () => {
            await stopChild(started);
            rmSync(dir, { recursive: true, force: true });
          },
        };
      }
      await stopChild(child);
    }
    throw new Error('docker-registry did not start after 3 attempts');
  } catch (e) {
    if (child !== undefined) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function waitReady(host: string, caPem: string | undefined, exited: () => boolean): Promise<boolean> {
  const dispatcher = new Agent(caPem === undefined ? {} : { connect: { ca: caPem } });
  try {
    for (let i = 0; i < 200 && !exited(); i++) {
      try {
        const res = await request(`${caPem === undefined ? 'http' : 'https'}://${host}/v2/`, { dispatcher });
        await res.body.dump();
        if (res.statusCode === 200 || res.statusCode === 401) return true;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return false;
  } finally {
    await dispatcher.close();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 3000);
    t.unref();
  });
}
