/** `kubecfg version` prints kubecfg's lines, and `-o json` the same facts with stable keys. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BUILT, Sandbox } from '../daemon/harness.js';

describe('kubecfg version', { skip: !BUILT && 'run npm run build first', timeout: 60_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
  });
  after(() => sb.cleanup());

  it('text and -o json say the same', async () => {
    const text = await sb.run(['version']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^kubecfg version: \S+\njsonnet version: v0\.20\.0\nbuild id: \S+\nprotocol version: \d+\nnode version: v\d+/,
    );
    const json = await sb.run(['version', '-o', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const v = JSON.parse(json.stdout);
    assert.deepEqual(Object.keys(v), ['kubecfgVersion', 'jsonnetVersion', 'buildId', 'protocolVersion', 'nodeVersion']);
    assert.equal(
      text.stdout,
      `kubecfg version: ${v.kubecfgVersion}\njsonnet version: ${v.jsonnetVersion}\nbuild id: ${v.buildId}\nprotocol version: ${v.protocolVersion}\nnode version: ${v.nodeVersion}\n`,
    );
    const bad = await sb.run(['version', '-o', 'yaml']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^invalid argument "yaml" for "-o, --output" flag: must be one of text, json\n$/);
  });
});
