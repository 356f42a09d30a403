/**
 * The kubeconfig `auth-provider: oidc`: a valid id-token is sent as is; an
 * expired one is refreshed at the issuer's token endpoint (found by
 * discovery) with the refresh-token and client credentials, and the new
 * id-token is what the API server sees; a 401 forces one refresh; an issuer
 * that refuses gives a KUBE_AUTH error without tokens in it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openCluster } from '../../kube/cluster.js';
import { nodeFileReader } from '../../kube/connection.js';
import { DiscoveryCache } from '../../kube/discovery.js';
import { KubeError } from '../../kube/errors.js';
import { validateObjects } from '../../kube/validate.js';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { configMap, openapiDocument } from './harness.js';

const jwt = (exp: number, sub: string): string =>
  [{ alg: 'none' }, { exp, sub }].map((p) => Buffer.from(JSON.stringify(p)).toString('base64url')).join('.') + '.sig';
const HOUR = 3600;
const now = Math.floor(Date.now() / 1000);
const FRESH = jwt(now + HOUR, 'fresh');
const EXPIRED = jwt(now - HOUR, 'old');

interface Issuer {
  url: string;
  /** Form bodies posted to the token endpoint. */
  grants: URLSearchParams[];
  refuse: boolean;
  close(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const issuer: Issuer = { url: '', grants: [], refuse: false, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/realm/.well-known/openid-configuration') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: `${issuer.url}/realm`, token_endpoint: `${issuer.url}/realm/token` }));
      } else if (req.method === 'POST' && req.url === '/realm/token') {
        issuer.grants.push(new URLSearchParams(body));
        if (issuer.refuse) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ id_token: FRESH, refresh_token: 'rotated-refresh', token_type: 'Bearer' }));
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.close = () => new Promise((r) => server.close(() => r()));
  return issuer;
}

let dir: string;
let api: TestApiServer;
let issuer: Issuer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-oidc-'));
  api = await startTestApiServer({ openapi: openapiDocument().doc, token: FRESH });
  issuer = await startIssuer();
});
after(async () => {
  await issuer.close();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(idToken: string): string {
  const file = join(dir, 'oidc.kubeconfig');
  const config = {
    'client-id': 'kubectl',
    'client-secret': 'shh',
    'id-token': idToken,
    'refresh-token': 'first-refresh',
    'idp-issuer-url': `${issuer.url}/realm`,
  };
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: t',
      `clusters: [{name: c, cluster: {server: '${api.url}'}}]`,
      `users: [{name: dev, user: {auth-provider: {name: oidc, config: ${JSON.stringify(config)}}}}]`,
      'contexts: [{name: t, context: {cluster: c, user: dev}}]',
    ].join('\n'),
  );
  return file;
}

async function validate(file: string): Promise<void> {
  const session = openCluster(
    { kubeconfig: file },
    {
      environment: { env: {}, files: nodeFileReader, serviceAccountDir: join(dir, 'none') },
      cache: new DiscoveryCache(),
    },
  );
  try {
    assert.equal((await validateObjects(session, [configMap('c', {})])).ok, true);
  } finally {
    session.close();
  }
}

describe('oidc auth-provider', () => {
  it('sends a valid id-token without asking the issuer', async () => {
    issuer.grants.length = 0;
    await validate(kubeconfig(FRESH));
    assert.equal(issuer.grants.length, 0);
  });

  it('refreshes an expired id-token at the token endpoint and sends the new one', async () => {
    issuer.grants.length = 0;
    await validate(kubeconfig(EXPIRED));
    assert.equal(issuer.grants.length, 1);
    const grant = Object.fromEntries(issuer.grants[0]!);
    assert.deepEqual(grant, {
      grant_type: 'refresh_token',
      refresh_token: 'first-refresh',
      client_id: 'kubectl',
      client_secret: 'shh',
    });
  });

  it('refreshes once after a 401 even when the id-token looks valid', async () => {
    issuer.grants.length = 0;
    await validate(kubeconfig(jwt(now + HOUR, 'revoked')));
    assert.equal(issuer.grants.length, 1);
  });

  it('reports an issuer that refuses the refresh without quoting tokens', async () => {
    issuer.grants.length = 0;
    issuer.refuse = true;
    try {
      await assert.rejects(validate(kubeconfig(EXPIRED)), (err: unknown) => {
        assert.ok(err instanceof KubeError && err.code === 'KUBE_AUTH');
        assert.match(
          err.message,
          /^user "dev": oidc auth-provider: token refresh at http:\/\/127\.0\.0\.1:\d+ answered HTTP 400$/,
        );
        assert.doesNotMatch(err.message, /first-refresh|shh/);
        return true;
      });
    } finally {
      issuer.refuse = false;
    }
  });
});
