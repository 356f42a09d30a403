/**
 * `import 'binary://LOCATION'`, kubecfg's deprecated spelling of importbin
 * (feature binary-import): the bytes as an array of numbers, found as any
 * import is (relative to the importing file, then -J), refused with the
 * registry's gate error unless the feature is on, and never confused with an
 * importbin or importstr of the same file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FlagValue } from '../../protocol/index.js';
import { runShow } from './show.js';
import { commandParams, IN_PROCESS as ctx } from '../../test/support/command-params.js';

describe('binary:// imports (in-process)', () => {
  let dir: string;
  const params = (args: string[], flags: Record<string, FlagValue>) => commandParams(dir, args, flags);
  const bytes = Uint8Array.from([0, 1, 127, 128, 255, 10, 34]);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-binary-'));
    mkdirSync(join(dir, 'sub'));
    mkdirSync(join(dir, 'vendor'));
    writeFileSync(join(dir, 'sub', 'blob.bin'), bytes);
    writeFileSync(join(dir, 'vendor', 'lib.bin'), Uint8Array.from([7, 8]));
    const cm = (data: string) => `{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: ${data} }\n`;
    writeFileSync(
      join(dir, 'sub', 'app.jsonnet'),
      cm(
        "local a = import 'binary://blob.bin', b = importbin 'blob.bin', s = importstr 'binary://blob.bin';\n" +
          "{ same: std.toString(a == b), text: s, lib: std.toString(import 'binary://lib.bin'), n: std.toString(std.length(a)) }",
      ),
    );
    writeFileSync(join(dir, 'missing.jsonnet'), cm("{ x: std.toString(import 'binary://nope.bin') }"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the bytes as numbers, relative to the importing file and through -J, with the feature on', () => {
    const r = runShow(params(['sub/app.jsonnet'], { alpha: true, jpath: ['vendor'], format: 'json' }), ctx);
    assert.equal(r.exitCode, 0, r.stderr);
    const data = JSON.parse(r.stdout).data;
    assert.deepEqual(data, {
      same: 'true',
      text: '[0,1,127,128,255,10,34]',
      lib: '[7, 8]',
      n: '7',
    });
  });

  it('the feature alone (no --alpha) turns it on', () => {
    const r = runShow(params(['sub/app.jsonnet'], { features: ['binary-import'], jpath: ['vendor'] }), ctx);
    assert.equal(r.exitCode, 0, r.stderr);
  });

  it('is refused with the gate error when the feature is off (fields in order: lib first)', () => {
    const r = runShow(params(['sub/app.jsonnet'], { jpath: ['vendor'] }), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(
      r.stderr,
      /binary:\/\/lib\.bin: binary-import is an alpha feature; turn it on with --features=binary-import/,
    );
  });

  it('a location not found is the usual import error, naming the location', () => {
    const r = runShow(params(['missing.jsonnet'], { alpha: true }), ctx);
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /couldn't open import "nope\.bin": no match locally or in the Jsonnet library paths/);
  });
});

describe('kustomize+https:// imports (in-process)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-kustomize-'));
    writeFileSync(join(dir, 'k.jsonnet'), "import 'kustomize+https://example.com/repo//base?ref=v1'\n");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  const show = (flags: Record<string, FlagValue>) => runShow(commandParams(dir, ['k.jsonnet'], flags), ctx);

  it('is refused with the gate error when the feature is off', () => {
    const r = show({});
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /kustomize-import is an alpha feature; turn it on with --features=kustomize-import/);
  });

  it('with the feature on, fails saying kustomize builds are not part of this kubecfg', () => {
    const r = show({ alpha: true });
    assert.equal(r.exitCode, 1);
    assert.match(r.stderr, /kustomize builds are not part of this kubecfg/);
  });
});
