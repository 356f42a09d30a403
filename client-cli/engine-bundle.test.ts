import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadEngineBundle } from './engine-bundle.js';

describe('loadEngineBundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubecfg-engine-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'engine.cjs');
  writeFileSync(
    bundle,
    [
      'const { basename } = require("node:path");',
      'exports.runOneshotRequest = async (method, params) => `${method} ${params.n * 2} ${basename(__filename)} ${typeof module}`;',
    ].join('\n'),
  );
  const run = async (): Promise<unknown> =>
    loadEngineBundle(bundle)!.engine.runOneshotRequest('m', { n: 21 }, undefined, false);

  it('answers undefined when there is no bundle', () => {
    assert.equal(loadEngineBundle(join(dir, 'missing.cjs')), undefined);
  });

  it('runs the bundle as a CommonJS module (require, __filename, module)', async () => {
    assert.equal(await run(), 'm 42 engine.cjs object');
  });

  it('writes the code cache once, keeps a valid one, and replaces one V8 refuses', () => {
    const cache = `${bundle}.cache`;
    rmSync(cache, { force: true });
    loadEngineBundle(bundle)!.saveCache();
    assert.ok(existsSync(cache), 'written when there was none');
    const first = readFileSync(cache);
    writeFileSync(cache, first);
    const again = loadEngineBundle(bundle)!;
    writeFileSync(cache, 'marker: not rewritten while valid');
    again.saveCache();
    assert.equal(readFileSync(cache, 'utf8'), 'marker: not rewritten while valid');
    // Each check compiles a new source: V8 would otherwise answer from its in-memory cache.
    writeFileSync(cache, first);
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '\n// another build\n');
    loadEngineBundle(bundle)!.saveCache();
    assert.notDeepEqual(readFileSync(cache), first, 'a cache of another bundle is refused and rewritten');
    writeFileSync(cache, 'not a V8 code cache');
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '// and another\n');
    loadEngineBundle(bundle)!.saveCache();
    assert.notEqual(readFileSync(cache, 'latin1'), 'not a V8 code cache', 'a damaged cache is refused and rewritten');
  });

  it('still runs when the cache cannot be written', async () => {
    const cache = `${bundle}.cache`;
    writeFileSync(cache, 'garbage');
    writeFileSync(bundle, readFileSync(bundle, 'utf8') + '// a third build\n');
    const loaded = loadEngineBundle(bundle)!;
    rmSync(cache);
    mkdirSync(cache); // a directory where the cache file goes: the rename fails
    assert.doesNotThrow(() => loaded.saveCache());
    assert.equal(await loaded.engine.runOneshotRequest('m', { n: 1 }, undefined, false), 'm 2 engine.cjs object');
    rmSync(cache, { recursive: true });
  });

  it('reads an ASCII bundle and one with other characters alike', async () => {
    const other = join(dir, 'utf8.cjs');
    writeFileSync(other, 'exports.runOneshotRequest = async () => /^(µs|μs)$/u.test("μs") + " é 😀";\n');
    assert.equal(await loadEngineBundle(other)!.engine.runOneshotRequest('m', {}, undefined, false), 'true é 😀');
  });
});

// The build rewrites what esbuild leaves non-ASCII (regular expressions, comments), so the
// loader can copy the file into a one-byte string instead of decoding UTF-8 (scripts/build.mjs).
const BUILT_BUNDLE = join(import.meta.dirname, '../bin/engine.cjs');
describe('the built engine bundle', { skip: !existsSync(BUILT_BUNDLE) && 'not built' }, () => {
  it('is ASCII', () => {
    const bytes = readFileSync(BUILT_BUNDLE);
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `non-ASCII byte at offset ${at}`);
  });
});
