import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runCommand } from './run.js';
import { NO_TTY as tty } from '../../test/support/command-params.js';

describe('commands in-process', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-run-'));
    mkdirSync(join(dir, 'app'));
    mkdirSync(join(dir, 'lib'));
    mkdirSync(join(dir, 'vendor'));
    writeFileSync(
      join(dir, 'app', 'main.jsonnet'),
      "local l = import 'lib.libsonnet';\n{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: l.name }, data: { v: std.extVar('v') } } }\n",
    );
    writeFileSync(join(dir, 'app', 'lib.libsonnet'), "{ name: (import 'helper.libsonnet').n }\n");
    writeFileSync(join(dir, 'lib', 'helper.libsonnet'), "{ n: 'from-lib' }\n");
    writeFileSync(join(dir, 'vendor', 'helper.libsonnet'), "{ n: 'from-vendor' }\n");
    writeFileSync(
      join(dir, 'uses-kubecfg.jsonnet'),
      "local kubecfg = import 'kubecfg.libsonnet';\n{ x: { apiVersion: 'v1', kind: 'Secret', metadata: { name: std.toString(kubecfg.isK8sObject({ apiVersion: 'v1', kind: 'A' })) } } }\n",
    );
    writeFileSync(
      join(dir, 'uses-kubecfg.libsonnet'),
      "local kubecfg = import 'kubecfg.libsonnet';\n{ x: { apiVersion: 'v1', kind: 'Secret', metadata: { name: std.toString(kubecfg.isK8sObject({ apiVersion: 'v1', kind: 'A' })) } } }\n",
    );
    writeFileSync(join(dir, 'bad.jsonnet'), '{ a: }\n');
    writeFileSync(join(dir, 'no-import.jsonnet'), '{ a: kubecfg.isK8sObject({}) }\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (command: 'show' | 'eval' | 'jsonnet', args: string[], flags: Record<string, FlagValue> = {}) => {
    const params: CommandParams = { requestId: 'r', args, flags, cwd: dir, env: {}, tty };
    return runCommand(command, params, { shouldStop: () => false, testHooks: false });
  };

  it('Unknown variable: kubecfg in a Jsonnet file ends with the RFC06 hint in show and eval, not in jsonnet', () => {
    const hint =
      "\nhint: kubecfg is not predefined in Jsonnet files. Add this line at the top of the file:\n  local kubecfg = import 'kubecfg.libsonnet';\n";
    for (const r of [run('show', ['no-import.jsonnet']), run('eval', ['no-import.jsonnet'], { features: ['eval'] })]) {
      assert.equal(r.exitCode, 1);
      assert.match(r.stderr, /Unknown variable: kubecfg\b/);
      assert.ok(r.stderr.endsWith(hint), r.stderr);
    }
    // The jsonnet command prints what the jsonnet binary prints, which has no such hint.
    const plain = run('jsonnet', ['no-import.jsonnet']);
    assert.match(plain.stderr, /Unknown variable: kubecfg\b/);
    assert.ok(!plain.stderr.includes('hint:'), plain.stderr);
  });

  it('a .libsonnet input is evaluated like a .jsonnet one (kubecfg reads both with its Jsonnet reader)', () => {
    const r = run('show', ['uses-kubecfg.libsonnet']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /kind: Secret\n {2}name: "true"|name: "true"/);
  });

  it('imports relative to the importing file, then -J in order, and records misses', () => {
    const first = run('show', ['app/main.jsonnet'], { jpath: ['lib', 'vendor'], 'ext-str': ['v=1'] });
    assert.equal(first.exitCode, 0, first.stderr);
    assert.match(first.stdout, /name: from-lib/);
    const second = run('show', ['app/main.jsonnet'], { jpath: ['vendor', 'lib'], 'ext-str': ['v=1'] });
    assert.match(second.stdout, /name: from-vendor/);
    const missing = first.deps.filter((d) => !d.exists).map((d) => d.path);
    assert.ok(
      missing.includes(join(dir, 'app', 'helper.libsonnet')),
      'the miss next to the importer is a negative dependency',
    );
    assert.ok(first.deps.some((d) => d.exists && d.path === join(dir, 'lib', 'helper.libsonnet')));
  });

  it('finds the built-in kubecfg.libsonnet and the natives behind it', () => {
    const r = run('show', ['uses-kubecfg.jsonnet']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: "true"/);
  });

  it('predefines kubecfg in -e code only', () => {
    const r = run('show', [], {
      exec: "{ x: { apiVersion: 'v1', kind: 'A', metadata: { name: std.toString(kubecfg.isK8sObject({})) } } }",
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /name: "false"/);
  });

  const failures: [string, () => ReturnType<typeof run>, RegExp][] = [
    ['a syntax error', () => run('show', ['bad.jsonnet']), /^error reading bad\.jsonnet: bad\.jsonnet:1:\d+/],
    [
      'a missing import',
      () => run('show', ['app/main.jsonnet'], { 'ext-str': ['v=1'] }),
      /couldn't open import "helper\.libsonnet": no match locally or in the Jsonnet library paths/,
    ],
    [
      'kubecfg used by a .jsonnet file without importing it (RFC06)',
      () => run('show', ['no-import.jsonnet']),
      /no-import\.jsonnet:1:\d+.*kubecfg/,
    ],
    ['an unknown suffix', () => run('show', ['x.yml']), /unknown file extension: x\.yml/],
    [
      'eval without the feature',
      () => run('eval', ['bad.jsonnet']),
      /eval is an alpha feature; turn it on with --features=eval/,
    ],
    [
      'a malformed ext var',
      () => run('show', ['app/main.jsonnet'], { 'ext-str-file': ['novalue'] }),
      /Failed to parse ext-str-file: missing '=' in novalue/,
    ],
    [
      '--jurl with a URL that is not http(s)',
      () => run('show', ['app/main.jsonnet'], { jurl: ['ftp://example.com/lib'] }),
      /--jurl ftp:\/\/example\.com\/lib: only http:\/\/ and https:\/\/ search URLs are supported/,
    ],
  ];
  for (const [name, exec, message] of failures) {
    it(`reports ${name} and exits 1`, () => {
      const r = exec();
      assert.equal(r.exitCode, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
    });
  }

  it('evaluates -e with $ bound to the file (eval) and prints like the jsonnet command (jsonnet)', () => {
    const e = run('eval', ['app/main.jsonnet'], {
      features: ['eval'],
      jpath: ['lib'],
      'ext-str': ['v=2'],
      expr: '$.cm.data',
      format: 'json',
    });
    assert.equal(e.exitCode, 0, e.stderr);
    assert.match(e.stdout, /"v": "2"/);
    const j = run('jsonnet', ['app/lib.libsonnet'], { jpath: ['lib'] });
    assert.equal(j.stdout, '{\n   "name": "from-lib"\n}\n');
  });
});
