/**
 * Golden tests: every example of kubecfg.txt's Show, Eval and Provenance
 * sections. Each `*-source.json` is the evaluated Jsonnet of the example (made
 * with /usr/bin/jsonnet from the spec's code); the expected files are the
 * spec's output blocks, to which the trailing newline(s) kubecfg's Go code
 * prints are added (the spec text cannot show them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue } from '../../lang/common/json.js';
import { addProvenance, findObjects, formatEval, formatJsonObjects, formatYamlDocuments } from '../../render/index.js';
import { repoRoot } from '../support/repo-root.js';

const dir = join(repoRoot(import.meta.url), 'test/render/fixtures/spec/');
const read = (name: string): string => readFileSync(dir + name, 'utf8');
const source = (name: string): JsonValue => JSON.parse(read(name)) as JsonValue;
/** The spec block with exactly one final newline. */
const block = (name: string): string => read(name).replace(/\n*$/, '\n');

test('Show: basic rendering, yaml', () => {
  const objs = findObjects(source('show-source.json')).map((f) => f.object);
  assert.equal(formatYamlDocuments(objs), block('show.yaml'));
});

test('Show: basic rendering, json', () => {
  const objs = findObjects(source('show-source.json')).map((f) => f.object);
  assert.equal(formatJsonObjects(objs), block('show.json'));
});

test('Show: export manifests to files (file content)', () => {
  const objs = findObjects(source('show-source.json')).map((f) => f.object);
  assert.equal(formatYamlDocuments([objs[0]!]), block('export-file.yaml'));
});

test('Show: inline usage', () => {
  const objs = findObjects(source('show-inline-source.json')).map((f) => f.object);
  assert.equal(formatYamlDocuments(objs), block('show-inline.yaml'));
});

test('Eval: yaml (fmt.Println adds an empty last line)', () => {
  assert.equal(formatEval(source('eval-source.json'), 'yaml'), block('eval.yaml') + '\n');
});

test('Eval: json with 3-space indent (fmt.Println adds an empty last line)', () => {
  assert.equal(formatEval(source('eval-source.json'), 'json'), block('eval.json') + '\n');
});

test('Eval: an expression', () => {
  assert.equal(formatEval(source('eval-expr-source.json'), 'yaml'), '3\n\n');
});

test('Json Schema Validation: eval -o json of the valid example', () => {
  assert.equal(formatEval(source('schema-eval-source.json'), 'json'), block('schema-eval.json') + '\n');
});

test('Provenance: show --show-provenance', () => {
  const objs = findObjects(source('provenance-source.json')).map((f) => addProvenance(f, 'code.jsonnet'));
  assert.equal(formatYamlDocuments(objs), block('provenance.yaml'));
});
