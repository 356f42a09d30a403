import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerConfigCredentials, normalizeConfigKey, parseDockerConfig } from './docker-config.js';
import { isOciError } from './errors.js';

let dir: string;
let helperEnv: NodeJS.ProcessEnv;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubecfg-dockercfg-'));
  // A fake credential helper: knows two servers, says "not found" for the rest.
  writeFileSync(
    join(dir, 'docker-credential-fake'),
    '#!/bin/sh\nread server\ncase "$server" in\n' +
      '  helper.example.com) echo \'{"ServerURL":"helper.example.com","Username":"bob","Secret":"s3cret"}\';;\n' +
      '  token.example.com) echo \'{"ServerURL":"token.example.com","Username":"<token>","Secret":"refresh-abc"}\';;\n' +
      "  broken.example.com) echo 'not json';;\n" +
      '  *) echo "credentials not found in native keychain"; exit 1;;\nesac\n',
  );
  chmodSync(join(dir, 'docker-credential-fake'), 0o755);
  helperEnv = { PATH: `${dir}:/usr/bin:/bin` };
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('auths entries: base64 auth, username/password, identitytoken; keys normalized', async () => {
  const cfg = parseDockerConfig(
    JSON.stringify({
      auths: {
        'https://index.docker.io/v1/': { auth: Buffer.from('hubuser:hubpass').toString('base64') },
        'https://registry.example.com:5000/v2/': { username: 'u', password: 'p:with:colons' },
        'idp.example.com': { identitytoken: 'refresh-123' },
        'empty.example.com': {},
      },
    }),
    'config.json',
  );
  const creds = new DockerConfigCredentials(cfg, { env: helperEnv });
  assert.deepEqual(await creds.get('docker.io'), { username: 'hubuser', password: 'hubpass' });
  assert.deepEqual(await creds.get('registry.example.com:5000'), { username: 'u', password: 'p:with:colons' });
  assert.deepEqual(await creds.get('idp.example.com'), { identityToken: 'refresh-123' });
  assert.equal(await creds.get('empty.example.com'), undefined);
  assert.equal(await creds.get('other.example.com'), undefined);
  assert.equal(normalizeConfigKey('http://localhost:5000'), 'localhost:5000');
});

test('credHelpers and credsStore run docker-credential-* with the server on stdin', async () => {
  const cfg = parseDockerConfig(
    JSON.stringify({
      credsStore: 'fake',
      credHelpers: { 'token.example.com': 'fake', 'missing.example.com': 'absent' },
      auths: { 'fallback.example.com': { auth: Buffer.from('f:g').toString('base64') } },
    }),
    'config.json',
  );
  const creds = new DockerConfigCredentials(cfg, { env: helperEnv });
  assert.deepEqual(await creds.get('helper.example.com'), { username: 'bob', password: 's3cret' });
  assert.deepEqual(await creds.get('token.example.com'), { identityToken: 'refresh-abc' });
  assert.deepEqual(
    await creds.get('fallback.example.com'),
    { username: 'f', password: 'g' },
    'credsStore "not found" falls back to auths',
  );
  await assert.rejects(
    creds.get('missing.example.com'),
    (e) => isOciError(e, 'OCI_CREDENTIALS') && /not found on PATH/.test(e.message),
  );
  await assert.rejects(
    creds.get('broken.example.com'),
    (e) => isOciError(e, 'OCI_CREDENTIALS') && /not JSON/.test(e.message) && !e.message.includes('not json'),
  );
});

test('malformed config files are OCI_CREDENTIALS errors naming the field, missing files are empty', async () => {
  const table: [string, RegExp][] = [
    ['{', /not valid JSON/],
    ['[]', /top level/],
    ['{"auths": []}', /\.auths is not an object/],
    ['{"auths": {"x": {"auth": 5}}}', /\.auths\["x"\]\.auth is not a string/],
    ['{"credHelpers": {"x": 1}}', /credHelpers\["x"\]/],
  ];
  for (const [text, re] of table)
    assert.throws(
      () => parseDockerConfig(text, 'cfg.json'),
      (e) => isOciError(e, 'OCI_CREDENTIALS') && re.test(e.message),
      text,
    );
  const creds = await DockerConfigCredentials.fromFile(join(dir, 'does-not-exist.json'));
  assert.equal(await creds.get('docker.io'), undefined);
  const bad = new DockerConfigCredentials(
    parseDockerConfig(JSON.stringify({ auths: { h: { auth: Buffer.from('nocolon').toString('base64') } } }), 'c'),
  );
  await assert.rejects(bad.get('h'), /not base64 of user:password/);
});
