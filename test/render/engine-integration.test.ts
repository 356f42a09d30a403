/**
 * End to end through our own Jsonnet engine: the spec's Show example (which
 * imports kubecfg.libsonnet) evaluated with render's library and natives,
 * then discovered and printed as `kubecfg show` does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceFile } from '../../lang/common/source.js';
import { evaluate, parseModule } from '../../lang/jsonnet/index.js';
import type { Importer } from '../../lang/jsonnet/index.js';
import { findObjects, formatYamlDocuments, kubecfgLibsonnet, kubecfgNatives } from '../../render/index.js';
import { repoRoot } from '../support/repo-root.js';

const dir = join(repoRoot(import.meta.url), 'test/render/fixtures/spec/');

const libraryImporter: Importer = {
  load(_from, path) {
    if (path !== 'kubecfg.libsonnet') throw new Error(`couldn't open import "${path}": not found`);
    return { foundAt: 'kubecfg.libsonnet', contents: new TextEncoder().encode(kubecfgLibsonnet) };
  },
};

test('spec Show example through the engine', () => {
  const source = readFileSync(dir + 'show-source.jsonnet.txt', 'utf8');
  const value = evaluate(parseModule(new SourceFile('show.jsonnet', source)), {
    importer: libraryImporter,
    natives: kubecfgNatives,
  });
  const expected = readFileSync(dir + 'show.yaml', 'utf8').replace(/\n*$/, '\n');
  assert.equal(formatYamlDocuments(findObjects(value).map((f) => f.object)), expected);
});

test('library natives through the engine', () => {
  const code = `local kubecfg = import 'kubecfg.libsonnet';
  {
    docs: kubecfg.parseYaml('a: yes\\n---\\nb: [1, 2]\\n'),
    json: kubecfg.parseJson('{"x": 1}'),
    yaml: kubecfg.manifestYaml({ on: 1 }),
    pretty: kubecfg.manifestJson({ a: 1 }),
    subst: kubecfg.regexSubst('(o+)', 'foo', '[$1]'),
    match: kubecfg.regexMatch('^f', 'foo'),
    quoted: kubecfg.escapeStringRegex('a.b'),
    folded: kubecfg.fold(function(acc, o) acc + [o.kind], [{ apiVersion: 'v1', kind: 'A' }, { x: { apiVersion: 'v1', kind: 'B' } }], []),
  }`;
  const value = evaluate(parseModule(new SourceFile('t.jsonnet', code)), {
    importer: libraryImporter,
    natives: kubecfgNatives,
  });
  assert.deepEqual(value, {
    docs: [{ a: true }, { b: [1, 2] }],
    json: { x: 1 },
    yaml: '"on": 1\n',
    pretty: '{\n    "a": 1\n}\n',
    subst: 'f[oo]',
    match: true,
    quoted: 'a\\.b',
    folded: ['A', 'B'],
  });
});
