/**
 * Every example of the YAKL spec as a test: each fixtures/<case>/input.yakl
 * is compiled and evaluated, and must equal fixtures/<case>/expected.jsonnet
 * (the spec's Jsonnet meaning) evaluated by the same engine. Other files of a
 * case directory are importable. Every input must also parse as plain YAML.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from './fixtures-dir.js';
import { parseAllDocuments } from 'yaml';
import { evalJsonnet, evalYakl } from '../support/yakl-eval.js';

const dir = fixturesDir;

function caseFiles(name: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const f of readdirSync(join(dir, name))) files[f] = readFileSync(join(dir, name, f), 'utf8');
  return files;
}

describe('spec examples', () => {
  for (const name of readdirSync(dir).sort()) {
    test(name, () => {
      const files = caseFiles(name);
      const input = files['input.yakl']!;
      for (const d of parseAllDocuments(input)) assert.deepEqual(d.errors, [], `${name}: input is not plain YAML`);
      const want = evalJsonnet(files['expected.jsonnet']!, files);
      const got = evalYakl(input, files, 'input.yakl');
      assert.deepEqual(got, want);
    });
  }
});
