import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommandParams } from '../../protocol/index.js';
import { pathOutsideRoot } from './request-paths.js';

const params = (args: string[], flags: CommandParams['flags'] = {}, cwd = '.'): CommandParams =>
  ({ requestId: 'r', args, flags, cwd, env: {}, tty: {} }) as unknown as CommandParams;

test('paths a request names must stay inside the upload root', () => {
  const cases: [CommandParams, string | undefined][] = [
    [params(['app.jsonnet', 'sub/../lib/x.jsonnet', '-']), undefined],
    [params(['https://example.com/a.jsonnet', 'oci://r.example/x:1', 'data:,{}']), undefined],
    [params(['../x.jsonnet'], {}, 'sub'), undefined],
    [params(['../../x.jsonnet']), 'input "../../x.jsonnet"'],
    [params(['../../x.jsonnet'], {}, 'sub'), 'input "../../x.jsonnet"'],
    [params(['/etc/x.jsonnet']), 'input "/etc/x.jsonnet"'],
    [params(['a.jsonnet'], { jpath: ['vendor', '..'] }), '--jpath ".."'],
    [params(['a.jsonnet'], { 'ext-str-file': ['x=../x'] }), '--ext-str-file "x=../x"'],
    [params(['a.jsonnet'], { 'tla-code-file': ['x=sub/../../y'] }), '--tla-code-file "x=sub/../../y"'],
    [params(['a.jsonnet'], { 'ext-code-file': ['x=lib/x.libsonnet'] }), undefined],
    [params(['a.jsonnet'], { 'overlay-code-file': '/tmp/o.jsonnet' }), '--overlay-code-file "/tmp/o.jsonnet"'],
    [params(['a.jsonnet'], { root: '..' }), '--root ".."'],
  ];
  for (const [p, want] of cases)
    assert.equal(pathOutsideRoot(p), want, JSON.stringify(p.args) + JSON.stringify(p.flags));
});
