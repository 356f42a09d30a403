// A tiny Docker token server for tests (the distribution "token authentication" protocol): checks
// Basic credentials and answers {token} with an RS256 JWT, signed by a key generated with openssl,
// carrying the certificate in x5c so the registry can verify it against its rootcertbundle.
// Anonymous callers get a token with no access. Invariant: stop() closes the server.
import { createServer, type Server } from 'node:http';
import { createSign, randomBytes, X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestTokenServer {
  realm: string;
  service: string;
  issuer: string;
  certPem: string;
  username: string;
  password: string;
  /** Token requests seen, as "user scope1 scope2". */
  requests: string[];
  stop(): Promise<void>;
}

const b64url = (b: Buffer | string): string => Buffer.from(b).toString('base64url');

export async function startTokenServer(): Promise<TestTokenServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kubecfg-token-'));
  let keyPem: string;
  let certPem: string;
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=kubecfg-test-token-signer',
        '-keyout',
        'key.pem',
        '-out',
        'cert.pem',
      ],
      { cwd: dir, stdio: 'ignore' },
    );
    keyPem = readFileSync(join(dir, 'key.pem'), 'utf8');
    certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const der = new X509Certificate(certPem).raw.toString('base64');
  const service = 'kubecfg-test-registry';
  const issuer = 'kubecfg-test-issuer';
  const username = 'robot';
  const password = randomBytes(12).toString('hex');
  const requests: string[] = [];

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const expected = 'Basic ' + Buffer.from(`${username}:${password}`).toString('base64');
    const auth = req.headers.authorization;
    if (auth !== undefined && auth !== expected) {
      res.statusCode = 401;
      return void res.end('{"details":"bad credentials"}');
    }
    const scopes = url.searchParams.getAll('scope');
    requests.push(`${auth === undefined ? 'anonymous' : username} ${scopes.join(' ')}`);
    const access =
      auth === undefined
        ? []
        : scopes.map((s) => {
            const [type, ...rest] = s.split(':');
            const actions = rest.pop() ?? '';
            return { type, name: rest.join(':'), actions: actions.split(',') };
          });
    const now = Math.floor(Date.now() / 1000);
    const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'RS256', x5c: [der] }));
    const claims = b64url(
      JSON.stringify({
        iss: issuer,
        sub: username,
        aud: service,
        exp: now + 300,
        nbf: now - 60,
        iat: now,
        jti: randomBytes(8).toString('hex'),
        access,
      }),
    );
    const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(keyPem);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ token: `${header}.${claims}.${b64url(signature)}`, expires_in: 300 }));
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(typeof a === 'object' && a !== null ? a.port : 0);
    }),
  );
  return {
    realm: `http://127.0.0.1:${port}/token`,
    service,
    issuer,
    certPem,
    username,
    password,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
