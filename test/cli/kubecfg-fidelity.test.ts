/**
 * kubecfg's command-line behaviour through the built CLI, each case written from
 * upstream kubecfg (cmd/*.go) or cobra: unknown commands and help topics,
 * `completion --shell` and the $SHELL guess, `version`'s jsonnet line, the
 * duplicate-resource message, URL inputs without a .jsonnet suffix, file://
 * overlays, `-e` and overlays on the cluster commands, the deprecated
 * `--overlay`, pack's argument count and the --insecure-registry collision.
 * Render cases run with the daemon and with --no-daemon.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { COMMANDS, flagsOf } from '../../protocol/index.js';
import { startTestApiServer, type TestApiServer } from '../apiserver/api-server.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { openapiDocument } from '../kube/harness.js';

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

/** Every flag kubecfg's cmd/*.go defines, per command (persistent root flags apply to all). */
const KUBECFG_FLAGS: Record<string, string[]> = {
  '': [
    'alpha',
    'verbose',
    'jpath',
    'jurl',
    'ext-str',
    'ext-str-file',
    'ext-code',
    'ext-code-file',
    'tla-str',
    'tla-str-file',
    'tla-code',
    'tla-code-file',
    'resolve-images',
    'resolve-images-error',
    'kubeconfig',
    'context',
    'cluster',
    'user',
    'namespace',
    'server',
    'token',
    'as',
    'as-group',
    'certificate-authority',
    'client-certificate',
    'client-key',
    'insecure-skip-tls-verify',
    'request-timeout',
    'tls-server-name',
    'as-uid',
    'username',
    'password',
  ],
  show: [
    'exec',
    'overlay',
    'overlay-code',
    'overlay-code-file',
    'format',
    'export-dir',
    'export-filename-format',
    'export-filename-extension',
    'show-provenance',
    'reorder',
  ],
  eval: ['exec', 'overlay', 'overlay-code', 'overlay-code-file', 'expr', 'show-keys', 'format', 'trace'],
  diff: ['exec', 'overlay', 'overlay-code', 'overlay-code-file', 'diff-strategy', 'omit-secrets'],
  update: [
    'exec',
    'overlay',
    'overlay-code',
    'overlay-code-file',
    'create',
    'skip-gc',
    'gc-tag',
    'gc-tags-from-input',
    'gc-all-namespaces',
    'dry-run',
    'validate',
    'ignore-unknown',
  ],
  delete: ['exec', 'overlay', 'overlay-code', 'overlay-code-file', 'grace-period'],
  validate: ['exec', 'overlay', 'overlay-code', 'overlay-code-file', 'ignore-unknown', 'repeat-eval'],
  pack: ['output', 'insecure-registry', 'docs-tar-file', 'annotation'],
  httpd: ['listen-addr'],
  completion: ['shell'],
  version: [],
};

describe('kubecfg command-line fidelity', { skip: !BUILT && 'run npm run build first', timeout: 180_000 }, () => {
  let sb: Sandbox;
  let http: Server;
  let base = '';
  before(async () => {
    sb = new Sandbox();
    http = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(
        `{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-url' }, data: { p: '${req.url}' } } }`,
      );
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  after(async () => {
    await sb.cleanup();
    await new Promise((r) => http.close(r));
  });

  it('accepts every kubecfg flag on its command (catalog check)', () => {
    for (const [command, names] of Object.entries(KUBECFG_FLAGS)) {
      const spec = COMMANDS.find((c) => c.name === command);
      const accepted = new Set((spec ? flagsOf(spec) : []).map((f) => f.name));
      if (command === '') for (const c of COMMANDS) for (const f of flagsOf(c)) accepted.add(f.name);
      for (const name of names) assert.ok(accepted.has(name), `kubecfg ${command} --${name}`);
    }
  });

  it('an unknown command fails with cobra suggestions; help of an unknown topic says so', async () => {
    const r = await sb.run(['shwo', 'x.jsonnet']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `unknown command "shwo" for "kubecfg"\n\nDid you mean this?\n\tshow\n`);
    // Prefix rule: "up" is a prefix of update.
    assert.match((await sb.run(['up'])).stderr, /Did you mean this\?\n\tupdate\n/);
    const far = await sb.run(['zzzzzz']);
    assert.equal(far.stderr, `unknown command "zzzzzz" for "kubecfg"\n`);
    const topic = await sb.run(['help', 'bogus']);
    assert.equal(topic.code, 0);
    assert.ok(topic.stdout.startsWith('Unknown help topic [`bogus`]\nUsage:\n  kubecfg [command]\n'), topic.stdout);
  });

  it('completion takes --shell, the positional shell, or guesses from $SHELL', async () => {
    const zsh = await sb.run(['completion', '--shell', 'zsh']);
    assert.equal(zsh.code, 0, zsh.stderr);
    assert.match(zsh.stdout, /compdef/);
    const guessed = await sb.run(['completion'], { env: { SHELL: '/usr/bin/zsh5' } });
    assert.equal(guessed.stdout, zsh.stdout);
    const positional = await sb.run(['completion', 'zsh'], { env: { SHELL: '/bin/bash' } });
    assert.equal(positional.stdout, zsh.stdout);
    const bad = await sb.run(['completion'], { env: { SHELL: '/bin/tcsh' } });
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, 'Unknown shell "tcsh", try --shell\n');
  });

  it('version prints the jsonnet version kubecfg prints', async () => {
    const r = await sb.run(['version']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^kubecfg version: .*\njsonnet version: v0\.20\.0\n/);
  });

  it('pack names its missing argument; a global --insecure-registry list is no protocol error', async () => {
    const one = await sb.run(['--alpha', 'pack', 'a']);
    assert.equal(one.code, 1);
    assert.match(one.stderr, /^accepts 2 arg\(s\), received 1: ENTRY\.jsonnet missing\n/);
    const entry = join(sb.work, 'pack-entry.jsonnet');
    writeFileSync(entry, '{}\n');
    const r = await sb.run([
      '--insecure-registry',
      '127.0.0.1:9',
      '--alpha',
      'pack',
      '--output',
      join(sb.work, 'o.tgz'),
      '127.0.0.1:9/x:v1',
      entry,
    ]);
    assert.doesNotMatch(r.stderr, /params\.flags|expected a boolean/);
    assert.equal(r.code, 0, r.stderr);
  });

  it('exclusive overlay flags and the deprecated --overlay', async () => {
    const both = await sb.run(['show', '--overlay-code', '{}', '--overlay-code-file', 'x.jsonnet', 'a.jsonnet']);
    assert.equal(both.code, 1);
    assert.match(
      both.stderr,
      /^if any flags in the group \[overlay overlay-code overlay-code-file\] are set none of the others can be; \[overlay-code overlay-code-file\] were all set\n/,
    );
  });

  for (const mode of MODES) {
    const run = (args: string[]) => sb.run([...mode.flags, ...args]);

    it(`${mode.name}: duplicate resources fail with kubecfg's first line`, async () => {
      const f = join(sb.work, `dup-${mode.name}.jsonnet`);
      writeFileSync(
        f,
        "local cm(v) = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'foo', namespace: 'myns' }, data: { v: v } };\n{ a: cm('1'), b: cm('2') }\n",
      );
      const r = await run(['show', f]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /duplicate resource ConfigMap, "myns", "foo"\nat \$\.a and \$\.b\n/);
    });

    it(`${mode.name}: a URL input without .jsonnet is Jsonnet`, async () => {
      const r = await run(['--allow-import-host', '127.0.0.1', 'show', `${base}/app-${mode.name}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`name: from-url\\n`));
      assert.match(r.stdout, new RegExp(`p: /app-${mode.name}\\n`));
    });

    it(`${mode.name}: --overlay-code-file file:///abs and NAME=file:///abs; deprecated --overlay`, async () => {
      const app = join(sb.work, `ov-${mode.name}.jsonnet`);
      writeFileSync(
        app,
        "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ov' }, data: { a: '1' } } }\n",
      );
      const outer = join(sb.work, `outer-${mode.name}.jsonnet`);
      writeFileSync(outer, "{ cm+: { data+: { b: '2' } } }\n");
      const inner = join(sb.work, `inner-${mode.name}.jsonnet`);
      writeFileSync(inner, "{ data+: { c: '3' } }\n");
      const url = pathToFileURL(outer).href;
      const whole = await run(['--alpha', 'show', '--overlay-code-file', url, app]);
      assert.equal(whole.code, 0, whole.stderr);
      assert.match(whole.stdout, /a: "1"\n {2}b: "2"\n/);
      const named = await run(['--alpha', 'show', '--overlay-code-file', `cm=${pathToFileURL(inner).href}`, app]);
      assert.equal(named.code, 0, named.stderr);
      assert.match(named.stdout, /a: "1"\n {2}c: "3"\n/);
      const old = await run(['--alpha', 'show', '--overlay', outer, app]);
      assert.equal(old.code, 0, old.stderr);
      assert.match(old.stderr, /^Flag --overlay has been deprecated, please use overlay-code-file instead\n/);
      assert.match(old.stdout, /b: "2"/);
    });
  }

  describe('cluster commands take -e and overlays', () => {
    let server: TestApiServer;
    let kc = '';
    before(async () => {
      const { doc, bytes } = openapiDocument();
      let uid = 0;
      server = await startTestApiServer({
        openapi: doc,
        openapiBytes: bytes,
        now: () => new Date('2026-01-02T03:04:05Z'),
        newUid: () => `00000000-0000-4000-8000-${String(++uid).padStart(12, '0')}`,
      });
      kc = join(sb.work, 'kc.yaml');
      writeFileSync(kc, server.kubeconfig());
    });
    after(async () => {
      await server.close();
    });

    for (const mode of MODES) {
      it(`${mode.name}: update -e, diff with an overlay, unknown kinds`, async () => {
        const run = (args: string[]) => sb.run([...mode.flags, ...args], { env: { KUBECONFIG: kc } });
        const name = `e-${mode.name}`;
        const code = `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${name}', namespace: 'default' }, data: { a: '1' } }`;
        const upd = await run(['update', '-e', code]);
        assert.equal(upd.code, 0, upd.stderr);
        assert.match(upd.stderr, new RegExp(`^Creating configmaps default\\.${name}$`, 'm'));
        const file = join(sb.work, `${name}.jsonnet`);
        writeFileSync(file, code + '\n');
        const same = await run(['diff', '--diff-strategy=subset', file]);
        assert.equal(same.code, 0, same.stderr);
        const overlaid = await run([
          '--alpha',
          'diff',
          '--diff-strategy=subset',
          '--overlay-code',
          "{ data+: { a: '2' } }",
          file,
        ]);
        assert.equal(overlaid.code, 10, overlaid.stderr);
        const unknown = "{ apiVersion: 'v1', kind: 'CanfogMop', metadata: { name: 'x', namespace: 'default' } }";
        const v = await run(['validate', '--ignore-unknown=false', '-e', unknown]);
        assert.equal(v.code, 1);
        assert.match(v.stderr, /Unable to fetch schema: schema\.schema "\/v1, Kind=CanfogMop" not found/);
        const u = await run(['update', '-e', unknown]);
        assert.equal(u.code, 1);
        assert.match(u.stderr, /"\/v1, Kind=CanfogMop" not found/);
      });
    }
  });
});
