/**
 * .yakl inputs through the built CLI, with the daemon and with --no-daemon:
 * the spec's worked example (web.yakl, prod.yakl, lib.libsonnet) with `show`
 * and with the overlay, both compared with `show` of the spec's own Jsonnet
 * meaning; the gate message; an error on line N reported at line N;
 * `yakl:` imports from Jsonnet and importstr/importbin of the text; the
 * `NAME=FILE` overlay and the "apiVersion and kind but no name" refusal;
 * eval of a .yakl file; and, through the daemon, an edit of an imported .yakl
 * file seen by the next show.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUILT, REPO_ROOT, Sandbox } from '../daemon/harness.js';

const WORKED = join(REPO_ROOT, 'test', 'yakl-cli', 'fixtures', 'worked-example');

const MODES: Array<{ name: string; flags: string[] }> = [
  { name: 'daemon', flags: [] },
  { name: 'no-daemon', flags: ['--no-daemon'] },
];

const FILES: Record<string, string> = {
  // The spec's meaning of web.yakl, and of web.yakl with prod.yakl, as Jsonnet inputs for show.
  'web-meaning.jsonnet': "import 'web.expected.jsonnet'\n",
  'overlay-meaning.jsonnet': "(import 'web.expected.jsonnet') + (import 'prod.expected.jsonnet')\n",
  // Line 6 reads an ext var nobody sets.
  'bad.yakl': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  a: ${std.extVar("missing")}\n',
  // Line 4 holds an expression that doesn't parse.
  'syntax.yakl': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${1 +}\n',
  'imports.jsonnet':
    "{ config: (import 'yakl:web.yakl').config, text: std.startsWith(importstr 'web.yakl', \"'&lib': ${import\"), " +
    "bytes: std.length(importbin 'web.yakl') }\n",
  'whole.yakl': 'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: web-sa\n',
  'from-yakl.yakl':
    "^^: cm\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${(import 'yakl:web.yakl').config.name}\n",
};

describe('.yakl through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    for (const f of readdirSync(WORKED)) copyFileSync(join(WORKED, f), join(sb.work, f));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(sb.work, name), text);
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    const run = (args: string[]) => sb.run([...mode.flags, ...args]);
    const ok = async (args: string[]): Promise<string> => {
      const r = await run(args);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };

    it(`${mode.name}: show web.yakl gives the spec's meaning`, async () => {
      const got = await ok(['--features=yakl', 'show', '-o', 'json', 'web.yakl']);
      assert.equal(got, await ok(['show', '-o', 'json', 'web-meaning.jsonnet']));
      assert.match(got, /"kind": "NetworkPolicy"/);
    });

    it(`${mode.name}: show web.yakl with the prod.yakl overlay`, async () => {
      const got = await ok([
        '--features=yakl,overlay',
        'show',
        '-o',
        'json',
        'web.yakl',
        '--overlay-code-file',
        'prod.yakl',
      ]);
      assert.equal(got, await ok(['show', '-o', 'json', 'overlay-meaning.jsonnet']));
      assert.match(got, /"replicas": 5/);
      assert.match(got, /"image": "nginx:1\.29"/);
      assert.match(got, /"PodDisruptionBudget"/);
    });

    it(`${mode.name}: the gate message without --features=yakl`, async () => {
      const r = await run(['show', 'web.yakl']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /web\.yakl: yakl is an alpha feature; turn it on with --features=yakl/);
      const overlay = await run([
        '--features=overlay',
        'show',
        'web-meaning.jsonnet',
        '--overlay-code-file',
        'prod.yakl',
      ]);
      assert.equal(overlay.code, 1);
      assert.match(overlay.stderr, /prod\.yakl: yakl is an alpha feature; turn it on with --features=yakl/);
      const imported = await run(['--features=eval', 'eval', 'imports.jsonnet']);
      assert.equal(imported.code, 1);
      assert.match(imported.stderr, /yakl:web\.yakl: yakl is an alpha feature/);
      assert.match(imported.stderr, /imports\.jsonnet:1:/);
    });

    it(`${mode.name}: errors point at the .yakl line`, async () => {
      const runtime = await run(['--features=yakl', 'show', 'bad.yakl']);
      assert.equal(runtime.code, 1);
      assert.match(runtime.stderr, /Undefined external variable: missing/);
      assert.match(runtime.stderr, /bad\.yakl:6:/);
      const syntax = await run(['--features=yakl', 'show', 'syntax.yakl']);
      assert.equal(syntax.code, 1);
      assert.match(syntax.stderr, /error reading syntax\.yakl: syntax\.yakl:4:\d+: /);
      assert.doesNotMatch(syntax.stderr, /internal error/);
    });

    it(`${mode.name}: yakl: imports from Jsonnet and YAKL, importstr and importbin give the text`, async () => {
      const got = JSON.parse(await ok(['--features=eval,yakl', 'eval', '-o', 'json', 'imports.jsonnet'])) as Record<
        string,
        unknown
      >;
      assert.deepEqual(got.config, { name: 'web', image: 'nginx:1.27', replicas: 2 });
      assert.equal(got.text, true);
      assert.ok(typeof got.bytes === 'number' && got.bytes > 500);
      assert.match(await ok(['--features=yakl', 'show', 'from-yakl.yakl']), /name: web\n/);
    });

    it(`${mode.name}: --overlay-code-file NAME=FILE adds a field; a whole object without a name is refused`, async () => {
      const named = await ok(['--features=yakl,overlay', 'show', 'web.yakl', '--overlay-code-file', 'sa=whole.yakl']);
      assert.match(named, /kind: ServiceAccount\nmetadata:\n {2}name: web-sa\n/);
      assert.match(named, /kind: Deployment/);
      const whole = await run(['--features=yakl,overlay', 'show', 'web.yakl', '--overlay-code-file', 'whole.yakl']);
      assert.equal(whole.code, 1);
      assert.match(whole.stderr, /whole\.yakl:2:1: the overlay is one document with apiVersion and kind but no name/);
      assert.match(whole.stderr, /--overlay-code-file NAME=whole\.yakl/);
    });

    it(`${mode.name}: eval of a .yakl file, with -e`, async () => {
      const replicas = await ok(['--features=eval,yakl', 'eval', '-o', 'json', 'web.yakl', '-e', '$.config.replicas']);
      assert.equal(replicas.trim(), '2');
      const keys = await ok(['--features=eval,yakl', 'eval', '-k', 'web.yakl']);
      assert.equal(keys, 'deployment\nservice\nunnamed\nweb.conf\n');
    });
  }

  it('daemon: an edit of an imported .yakl file is seen by the next show', async () => {
    writeFileSync(join(sb.work, 'base.yakl'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n');
    writeFileSync(join(sb.work, 'top.jsonnet'), "import 'yakl:base.yakl'\n");
    const show = () => sb.run(['--features=yakl', 'show', 'top.jsonnet']);
    const one = await show();
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /name: first/);
    writeFileSync(join(sb.work, 'base.yakl'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: second\n');
    const two = await show();
    assert.equal(two.code, 0, two.stderr);
    assert.match(two.stdout, /name: second/);
  });
});
