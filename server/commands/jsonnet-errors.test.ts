/**
 * `kubecfg jsonnet` prints a Jsonnet error exactly as go-jsonnet's `jsonnet`
 * command does (fmt.Println of the formatted error, 20 frames, not pretty):
 * the last trace line ends with a tab and a blank line follows; a static
 * error shows its source lines and ends with two blank lines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FlagValue } from '../../protocol/index.js';
import { runJsonnet } from './jsonnet.js';
import { IN_PROCESS as ctx, commandParams } from '../../test/support/command-params.js';

describe('jsonnet command error text', () => {
  let dir: string;
  const files: Record<string, string> = {
    'boom.jsonnet': 'error "boom"\n',
    'deep.jsonnet': 'local f(x) = if x == 0 then error "bottom" else f(x - 1);\nf(2)\n',
    'syntax.jsonnet': '{ a: }\n',
    'blockimport.jsonnet': 'import |||\n  x\n|||\n',
    'extvar.jsonnet': 'std.extVar("bad")\n',
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-jsonnet-err-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, string, Record<string, FlagValue>, string][] = [
    ['runtime error', 'boom.jsonnet', {}, 'RUNTIME ERROR: boom\n\tboom.jsonnet:1:1-13\t$\n\tDuring evaluation\t\n\n'],
    [
      'runtime error through calls',
      'deep.jsonnet',
      {},
      'RUNTIME ERROR: bottom\n' +
        '\tdeep.jsonnet:1:29-43\tfunction <f>\n' +
        '\tdeep.jsonnet:1:49-57\tfunction <f>\n' +
        '\tdeep.jsonnet:1:49-57\tfunction <f>\n' +
        '\tdeep.jsonnet:2:1-5\t$\n' +
        '\tDuring evaluation\t\n\n',
    ],
    [
      'parse error',
      'syntax.jsonnet',
      {},
      'syntax.jsonnet:1:6-7 Unexpected: "}" while parsing terminal\n\n{ a: }\n\n\n',
    ],
    [
      'block string import',
      'blockimport.jsonnet',
      {},
      'blockimport.jsonnet:(1:8)-(3:4) Block string literals not allowed in imports\n\nimport |||\n  x\n|||\n\n\n',
    ],
    [
      'ext var with a static error',
      'extvar.jsonnet',
      { 'ext-code': ['bad=)'] },
      '<extvar:bad>:1:1-2 Unexpected: ")" while parsing terminal\n\n)\n\n\n',
    ],
  ];
  for (const [name, file, flags, want] of cases) {
    it(name, () => {
      const r = runJsonnet(commandParams(dir, [file], flags), ctx);
      assert.equal(r.exitCode, 1);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, want);
    });
  }
});
