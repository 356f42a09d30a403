/**
 * std.trace lines reach the command's stderr as go-jsonnet (and so kubecfg)
 * prints them, `TRACE: FILE:LINE MESSAGE`, for show, eval and jsonnet, beside
 * the normal output; a failing render keeps the lines printed before the error.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FlagValue } from '../../protocol/index.js';
import { runEval } from './eval.js';
import { runJsonnet } from './jsonnet.js';
import { runShow } from './show.js';
import { IN_PROCESS as ctx, commandParams } from '../../test/support/command-params.js';

describe('std.trace output', () => {
  let dir: string;
  const params = (args: string[], flags: Record<string, FlagValue>) => commandParams(dir, args, flags);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-trace-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'l.libsonnet'), '{\n  name: std.trace("naming", "cm"),\n}\n');
    writeFileSync(
      join(dir, 'main.jsonnet'),
      'local l = import "l.libsonnet";\n{ apiVersion: "v1", kind: "ConfigMap", metadata: { name: l.name } }\n',
    );
    writeFileSync(join(dir, 'bad.jsonnet'), 'std.trace("before", 1) + error "boom"\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, () => { exitCode: number; stdout: string; stderr: string }][] = [
    ['show', () => runShow(params(['main.jsonnet'], { jpath: ['lib'] }), ctx)],
    ['eval', () => runEval(params(['main.jsonnet'], { features: ['eval'], jpath: ['lib'] }), ctx)],
    ['jsonnet', () => runJsonnet(params(['main.jsonnet'], { jpath: ['lib'] }), ctx)],
  ];
  for (const [name, run] of cases) {
    it(`${name} prints the trace line on stderr`, () => {
      const r = run();
      assert.equal(r.exitCode, 0, r.stderr);
      assert.equal(r.stderr, 'TRACE: lib/l.libsonnet:2 naming\n');
      assert.match(r.stdout, /cm/);
    });
  }

  it('a failing jsonnet keeps the trace before the error', () => {
    const r = runJsonnet(params(['bad.jsonnet'], {}), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /^TRACE: bad\.jsonnet:1 before\nRUNTIME ERROR: boom/);
  });
});
