/**
 * The YAKL wiring in-process (runEval/runShow without the CLI): `eval -o
 * jsonnet` (readable code without evaluating; unformatted code with the
 * located error), the worker's compile cache (a second run compiles nothing,
 * an edit compiles once more), and deps recording the .yakl files read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runEval } from './eval.js';
import { runShow } from './show.js';
import { yaklCacheStats } from './yakl-compile.js';
import { NO_TTY as tty, IN_PROCESS as ctx } from '../../test/support/command-params.js';

describe('yakl in show and eval (in-process)', () => {
  let dir: string;
  const params = (args: string[], flags: Record<string, FlagValue>): CommandParams => ({
    requestId: 'r',
    args,
    flags,
    cwd: dir,
    env: {},
    tty,
  });
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-yakl-'));
    // Evaluating this file would fail: -o jsonnet must not evaluate it nor read the import.
    writeFileSync(
      join(dir, 'app.yakl'),
      "'&lib': ${import 'missing.libsonnet'}\n---\n^^: cm\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${lib.name} # settings\n",
    );
    writeFileSync(join(dir, 'broken.yakl'), 'a: 1\nb: ${1 +}\n');
    writeFileSync(join(dir, 'cm.yakl'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n');
    mkdirSync(join(dir, 'sub'));
    mkdirSync(join(dir, 'vendor'));
    // A yakl file importing a neighbour relative to itself, found through -J.
    writeFileSync(join(dir, 'vendor', 'lib.yakl'), "x: ${import 'near.libsonnet'}\nw: ${import 'yakl:other.yakl'}\n");
    writeFileSync(join(dir, 'vendor', 'near.libsonnet'), '{ n: 1 }\n');
    writeFileSync(join(dir, 'vendor', 'other.yakl'), 'z: 2\n');
    writeFileSync(join(dir, 'sub', 'uses.jsonnet'), "import 'yakl:lib.yakl'\n");
    writeFileSync(join(dir, 'strs.jsonnet'), "importstr 'yakl:cm.yakl'\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('eval -o jsonnet prints the readable Jsonnet without evaluating', () => {
    const r = runEval(params(['app.yakl'], { features: ['eval,yakl'], format: 'jsonnet' }), ctx);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /import 'missing\.libsonnet'/);
    assert.match(r.stdout, /\/\/ settings/);
    assert.match(r.stdout, /cm: \{/);
  });

  it('eval -o jsonnet with a syntax error prints the unformatted code and the located error', () => {
    const r = runEval(params(['broken.yakl'], { features: ['eval,yakl'], format: 'jsonnet' }), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(r.stdout, /1 \+/);
    assert.match(r.stderr, /^broken\.yakl:2:\d+: /m);
  });

  it('eval -o jsonnet needs yakl, and a .yakl file', () => {
    const gated = runEval(params(['app.yakl'], { features: ['eval'], format: 'jsonnet' }), ctx);
    assert.equal(gated.exitCode, 1);
    assert.match(gated.stderr, /app\.yakl: yakl is an alpha feature; turn it on with --features=yakl/);
    writeFileSync(join(dir, 'plain.jsonnet'), '{}\n');
    const plain = runEval(params(['plain.jsonnet'], { features: ['eval,yakl'], format: 'jsonnet' }), ctx);
    assert.equal(plain.exitCode, 1);
    assert.match(plain.stderr, /-o jsonnet prints the Jsonnet of a \.yakl file; plain\.jsonnet is not one/);
  });

  it('yakl: imports resolve as any import (relative to the importing file, then -J)', () => {
    const r = runEval(
      params(['sub/uses.jsonnet'], { features: ['eval,yakl'], jpath: ['vendor'], format: 'json' }),
      ctx,
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { w: { z: 2 }, x: { n: 1 } });
    const miss = runEval(params(['sub/uses.jsonnet'], { features: ['eval,yakl'], format: 'json' }), ctx);
    assert.equal(miss.exitCode, 1);
    assert.match(miss.stderr, /couldn't open import "lib\.yakl": no match locally or in the Jsonnet library paths/);
  });

  it('importstr of a yakl: location says how to get the text', () => {
    const r = runEval(params(['strs.jsonnet'], { features: ['eval,yakl'] }), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(
      r.stderr,
      /importstr "yakl:cm\.yakl": the yakl: scheme compiles a file for import; importstr "cm\.yakl"/,
    );
    assert.match(r.stderr, /strs\.jsonnet:1:/);
  });

  it('compiled files are cached by content; deps name the .yakl file', () => {
    const show = () => runShow(params(['cm.yakl'], { features: ['yakl'] }), ctx);
    const first = show();
    assert.equal(first.exitCode, 0, first.stderr);
    assert.ok(first.deps.some((d) => d.path === join(dir, 'cm.yakl')));
    const before = yaklCacheStats().compilations;
    assert.equal(show().stdout, first.stdout);
    assert.equal(yaklCacheStats().compilations, before);
    writeFileSync(join(dir, 'cm.yakl'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n');
    const edited = show();
    assert.match(edited.stdout, /name: two/);
    assert.equal(yaklCacheStats().compilations, before + 1);
  });
});
