/**
 * The kubeconfig user's impersonation fields (`as`, `as-uid`, `as-groups`,
 * `as-user-extra`), merged with --as/--as-group as client-go merges them:
 * headers seen by the test API server (user, groups) and by a bare HTTP
 * server (uid, extra); the refusals; the cache identity; extra-key escaping.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestApiServer } from '../test/apiserver/api-server.js';
import { openapiDocument } from '../test/kube/harness.js';
import { openCluster } from './cluster.js';
import { nodeFileReader, resolveConnection, type ConnectionEnvironment, type ConnectionFlags } from './connection.js';
import { DiscoveryCache } from './discovery.js';
import { KubeError } from './errors.js';
import { escapeExtraKey } from './rest-client.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-impersonation-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const environment = (): ConnectionEnvironment => ({
  env: {},
  files: nodeFileReader,
  serviceAccountDir: join(dir, 'no-sa'),
});

let counter = 0;
/** A kubeconfig whose current context uses a user with the given fields (YAML lines under `user:`). */
function kubeconfig(server: string, userLines: string[]): string {
  const file = join(dir, `config-${counter++}`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: c',
      'clusters:',
      '- name: k',
      '  cluster:',
      `    server: ${server}`,
      'contexts:',
      '- name: c',
      '  context: {cluster: k, user: u}',
      'users:',
      '- name: u',
      '  user:',
      ...userLines.map((l) => `    ${l}`),
      '',
    ].join('\n'),
  );
  return file;
}

const USER_LINES = [
  'token: t0ken',
  'as: alice',
  'as-groups: [dev, ops]',
  'as-uid: "1234"',
  'as-user-extra:',
  '  scopes: [view, edit]',
  '  example.org/team: [blue]',
];

const cases: {
  name: string;
  flags: Partial<ConnectionFlags>;
  user: string;
  groups: string[] | undefined;
}[] = [
  { name: 'the kubeconfig alone', flags: {}, user: 'alice', groups: ['dev', 'ops'] },
  { name: '--as replaces the user, the groups stay', flags: { as: 'bob' }, user: 'bob', groups: ['dev', 'ops'] },
  { name: '--as-group replaces the groups', flags: { asGroups: ['qa'] }, user: 'alice', groups: ['qa'] },
  { name: 'both flags', flags: { as: 'bob', asGroups: ['qa', 'x'] }, user: 'bob', groups: ['qa', 'x'] },
];

for (const c of cases) {
  test(`kubeconfig impersonation reaches the API server: ${c.name}`, async () => {
    const server = await startTestApiServer({ openapi: openapiDocument().doc });
    try {
      const config = kubeconfig(server.url, USER_LINES);
      const session = openCluster(
        { kubeconfig: config, ...c.flags },
        { environment: environment(), cache: new DiscoveryCache() },
      );
      await session.client.request('GET', '/version');
      session.close();
      const last = server.requests[server.requests.length - 1]!;
      assert.equal(last.impersonateUser, c.user);
      assert.deepEqual(last.impersonateGroups, c.groups);
    } finally {
      await server.close();
    }
  });
}

test('as-uid and as-user-extra are sent as Impersonate-Uid and one Impersonate-Extra-KEY per value', async () => {
  let seen: { headers: IncomingHttpHeaders; raw: string[] } | undefined;
  const server = createServer((req, res) => {
    seen = { headers: req.headers, raw: req.rawHeaders };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"major":"1","minor":"30"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const config = kubeconfig(`http://127.0.0.1:${port}`, USER_LINES);
    const session = openCluster({ kubeconfig: config }, { environment: environment(), cache: new DiscoveryCache() });
    await session.client.request('GET', '/version');
    session.close();
    assert.ok(seen);
    assert.equal(seen.headers['impersonate-user'], 'alice');
    assert.equal(seen.headers['impersonate-uid'], '1234');
    const values = (name: string): string[] =>
      seen!.raw.flatMap((h, i) => (i % 2 === 0 && h.toLowerCase() === name.toLowerCase() ? [seen!.raw[i + 1]!] : []));
    assert.deepEqual(values('impersonate-extra-scopes'), ['view', 'edit']);
    assert.deepEqual(values('impersonate-extra-example.org%2Fteam'), ['blue']);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

// kubectl's --as-uid, --username and --password (clientcmd override flags, which kubecfg binds).
test('--as-uid replaces the kubeconfig uid; --username/--password send basic auth', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"major":"1","minor":"30"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const config = kubeconfig(`http://127.0.0.1:${port}`, USER_LINES);
    const run = async (flags: Partial<ConnectionFlags>): Promise<IncomingHttpHeaders> => {
      const session = openCluster(
        { kubeconfig: config, ...flags },
        { environment: environment(), cache: new DiscoveryCache() },
      );
      await session.client.request('GET', '/version');
      session.close();
      return seen[seen.length - 1]!;
    };
    assert.equal((await run({ asUid: '42' }))['impersonate-uid'], '42');
    const basic = await run({ username: 'ann', password: 's3cret' });
    assert.equal(basic['authorization'], `Basic ${Buffer.from('ann:s3cret').toString('base64')}`);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

const refusals: { name: string; lines: string[]; flags?: Partial<ConnectionFlags>; message: RegExp }[] = [
  {
    name: 'as-groups without as',
    lines: ['token: t', 'as-groups: [dev]'],
    message: /^user "u": as-groups given without a user to impersonate/,
  },
  {
    name: 'as-uid and as-user-extra without as',
    lines: ['token: t', 'as-uid: "7"', 'as-user-extra: {k: [v]}'],
    message: /^user "u": as-uid, as-user-extra given without/,
  },
  {
    name: '--as-group without any user',
    lines: ['token: t'],
    flags: { asGroups: ['g'] },
    message: /without impersonating a user \(--as\)/,
  },
  {
    name: 'as-groups not a list',
    lines: ['token: t', 'as: a', 'as-groups: dev'],
    message: /users\[u\]\.as-groups must be a list of strings$/,
  },
  {
    name: 'as not a string',
    lines: ['token: t', 'as: [a]'],
    message: /users\[u\]\.as must be a string$/,
  },
  {
    name: 'as-user-extra values not strings',
    lines: ['token: t', 'as: a', 'as-user-extra: {k: [{x: 1}]}'],
    message: /users\[u\]\.as-user-extra\.k must be a list of strings$/,
  },
  {
    name: 'as-user-extra not a mapping',
    lines: ['token: t', 'as: a', 'as-user-extra: [k]'],
    message: /users\[u\]\.as-user-extra must be a mapping of lists of strings$/,
  },
];

for (const r of refusals) {
  test(`kubeconfig impersonation refused: ${r.name}`, () => {
    const config = kubeconfig('http://h:1', r.lines);
    assert.throws(
      () => resolveConnection({ kubeconfig: config, ...r.flags }, environment()),
      (e: unknown) => e instanceof KubeError && r.message.test(e.message) && !e.message.includes('t0ken'),
    );
  });
}

test('kubeconfig impersonation is part of the cache identity, without secrets', () => {
  const plain = resolveConnection({ kubeconfig: kubeconfig('http://h:1', ['token: t0ken']) }, environment());
  const as = resolveConnection({ kubeconfig: kubeconfig('http://h:1', USER_LINES) }, environment());
  const asOther = resolveConnection(
    { kubeconfig: kubeconfig('http://h:1', [...USER_LINES.slice(0, -1), '  example.org/team: [red]']) },
    environment(),
  );
  assert.notEqual(plain.identity, as.identity);
  assert.notEqual(as.identity, asOther.identity);
  assert.ok(!as.identity.includes('t0ken'));
  assert.deepEqual(as.impersonate, {
    user: 'alice',
    groups: ['dev', 'ops'],
    uid: '1234',
    extra: [
      ['scopes', ['view', 'edit']],
      ['example.org/team', ['blue']],
    ],
  });
});

const escapes: [string, string][] = [
  ['scopes', 'scopes'],
  ['example.org/team', 'example.org%2Fteam'],
  ['a b%c', 'a%20b%25c'],
  ['Ünï', '%C3%9Cn%C3%AF'],
  ["!#$&'*+-.^_`|~", "!#$&'*+-.^_`|~"],
];

for (const [key, want] of escapes) {
  test(`extra key ${JSON.stringify(key)} escapes to ${want}`, () => {
    assert.equal(escapeExtraKey(key), want);
  });
}
