// Differential test of the formatter against Debian's jsonnetfmt (C++ v0.18):
// every corpus file, under the defaults and each option varied alone, must
// format byte-identically. Also checks idempotence (format(format(x)) ==
// format(x)) for every corpus file and variant. The oracle part is skipped
// when /usr/bin/jsonnetfmt is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatJsonnet } from '../../lang/jsonnet/fmt/index.js';
import { OPTION_VARIANTS } from './option-variants.js';
import { repoRoot } from '../support/repo-root.js';

const ORACLE = '/usr/bin/jsonnetfmt';

const corpusDir = join(repoRoot(import.meta.url), 'test/jsonnet-fmt/corpus');
const corpus = readdirSync(corpusDir)
  .filter((f) => f.endsWith('.jsonnet'))
  .sort();

test('the corpus has the ~40 files the brief asks for', () => {
  assert.ok(corpus.length >= 40, `only ${corpus.length} corpus files`);
});

for (const variant of OPTION_VARIANTS) {
  test(`byte-identical to jsonnetfmt: ${variant.name}`, (t) => {
    if (!existsSync(ORACLE)) {
      t.skip('jsonnetfmt not installed');
      return;
    }
    for (const name of corpus) {
      const path = join(corpusDir, name);
      const want = execFileSync(ORACLE, [...variant.flags, path], { encoding: 'utf8' });
      const got = formatJsonnet(name, readFileSync(path, 'utf8'), variant.options);
      assert.equal(got, want, `${name} [${variant.name}]`);
    }
  });

  test(`idempotent: ${variant.name}`, () => {
    for (const name of corpus) {
      const once = formatJsonnet(name, readFileSync(join(corpusDir, name), 'utf8'), variant.options);
      const twice = formatJsonnet(name, once, variant.options);
      assert.equal(twice, once, `${name} [${variant.name}]`);
    }
  });
}
