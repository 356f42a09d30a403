/**
 * `kubecfg jsonnet` (default JSON mode) answers its output as UTF-8 bytes that the one-shot
 * prints and the worker sends as they are (docs/performance.md, "Cold one-shot, third round"):
 * the bytes are exactly the UTF-8 of the text the other modes and a decoded `stdout` give,
 * through runCommand's outcome, and the one-shot's byte sink receives them without decoding.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runJsonnet } from './jsonnet.js';
import { runCommand } from './run.js';
import { runOneshotRequest } from '../oneshot-run.js';
import { knownStdoutBytes } from './stdout-bytes.js';
import { IN_PROCESS as ctx, commandParams } from '../../test/support/command-params.js';

describe('jsonnet output as bytes', () => {
  let dir: string;
  const files: Record<string, string> = {
    'ascii.jsonnet': '{ b: [1, 2.5, "x"], a: { c: null } }\n',
    // Two-byte and four-byte characters, many chunks of output, a key needing escapes.
    'wide.jsonnet':
      '{ ["k" + i]: { name: "ключ “%d” 🙂" % i, tab: "\\t\\u0001" } for i in std.range(1, 3000) } + { "é\\n": "☃" }\n',
    'trace.jsonnet': 'std.trace("note", { a: 1 })\n',
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-jsonnet-bytes-'));
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, `stream-${name}`), `[import '${name}']\n`);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const file of Object.keys(files)) {
    it(`${file}: the bytes are the UTF-8 of the text (-y's document)`, () => {
      const r = runJsonnet(commandParams(dir, [file], {}), ctx);
      assert.equal(r.exitCode, 0, r.stderr);
      const bytes = knownStdoutBytes(r);
      assert.ok(bytes, 'answered as bytes');
      // The same document through the string path: -y wraps it in `---\n` ... `\n...\n`.
      const y = runJsonnet(commandParams(dir, [`stream-${file}`], { 'yaml-stream': true }), ctx);
      assert.equal(knownStdoutBytes(y), undefined);
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      assert.equal(r.stdout, text, 'stdout decodes to the same text');
      assert.ok(text.endsWith('\n'));
      if (file !== 'trace.jsonnet') assert.equal(y.stdout, `---\n${text}...\n`);
      else assert.equal(r.stderr, 'TRACE: trace.jsonnet:1 note\n');
    });
  }

  it('runCommand keeps the bytes, and the one-shot writes them without decoding', async () => {
    const params = commandParams(dir, ['wide.jsonnet'], {});
    const outcome = runCommand('jsonnet', params, ctx);
    assert.ok(knownStdoutBytes(outcome));
    const written: string[] = [];
    const code = await runOneshotRequest('render/jsonnet', params, {
      write: (stream, data) => {
        if (stream === 'stdout' && data !== '') assert.fail('stdout written as a string');
        if (data !== '') written.push(`${stream}:${data}`);
      },
      writeBytes: (stream, data) => written.push(`${stream}:${data.toString('utf8')}`),
    });
    assert.equal(code, 0);
    assert.deepEqual(written, [`stdout:${outcome.stdout}`]);
  });
});
