/**
 * `eval -o jsonnet` output (yaklToReadableJsonnet): the spec's example prints
 * exactly as the spec shows, and for every fixture the readable code means
 * the same as the line-preserving code kubecfg evaluates.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './fixtures-dir.js';
import { YaklJsonnetSyntaxError, yaklToReadableJsonnet } from '../../lang/yakl/index.js';
import { evalJsonnet, evalYakl } from '../support/yakl-eval.js';

const dir = fixturesDir;

test("the spec's eval -o jsonnet example", () => {
  const input = readFileSync(join(dir, 'eval-o-jsonnet', 'input.yakl'), 'utf8');
  const want = `{
  local k = import 'k.libsonnet',
  config:: {
    replicas: 2,  // overlays change it
  },
  deployment: local yakl__root = {
    kind: 'Deployment',
    metadata: {
      labels: { app: 'web' },
    },
    spec: {
      replicas: $.config.replicas,
      selector: { matchLabels: labels },
    },
  }, labels = yakl__root.metadata.labels; yakl__root,
}
`;
  assert.equal(yaklToReadableJsonnet('app.yakl', input), want);
});

test('kubecfg prelude shows at the top', () => {
  const out = yaklToReadableJsonnet('p.yakl', 'image: ${kubecfg.resolveImage("x")}\n');
  assert.match(out, /^local kubecfg = import 'internal:\/\/\/kubecfg\.libsonnet', yakl__kubecfg = kubecfg;\n/);
});

test('a syntax error carries the unformatted code and the yakl line', () => {
  try {
    yaklToReadableJsonnet('bad.yakl', 'a: 1\nb: ${1 +}\n');
    assert.fail('expected an error');
  } catch (e) {
    assert.ok(e instanceof YaklJsonnetSyntaxError);
    assert.equal(e.line, 2);
    assert.match(e.generated, /1 \+/);
  }
});

describe('readable code means the same', () => {
  for (const name of readdirSync(dir).sort()) {
    test(name, () => {
      const files: Record<string, string> = {};
      for (const f of readdirSync(join(dir, name))) files[f] = readFileSync(join(dir, name, f), 'utf8');
      const readable = yaklToReadableJsonnet('input.yakl', files['input.yakl']!);
      assert.deepEqual(evalJsonnet(readable, files), evalYakl(files['input.yakl']!, files, 'input.yakl'));
    });
  }
});
