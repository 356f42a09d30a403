// .helmignore rules as Helm's pkg/ignore applies them to a chart directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HelmIgnore, loadChartDirectory, ChartError } from './index.js';
import { goMatchRegex } from './helmignore.js';

const enc = new TextEncoder();

const cases: [string, string, string, boolean, boolean][] = [
  // [name, rules, path, isDir, ignored]
  ['base-name pattern matches at any depth', '*.bak', 'templates/x.bak', false, true],
  ['base-name pattern does not match other files', '*.bak', 'templates/x.yaml', false, false],
  ['structural pattern matches the whole path', 'docs/*.md', 'docs/a.md', false, true],
  ['structural pattern does not cross directories', 'docs/*.md', 'docs/sub/a.md', false, false],
  ['leading slash anchors at the root', '/secret.txt', 'secret.txt', false, true],
  ['anchored pattern does not match deeper', '/secret.txt', 'files/secret.txt', false, false],
  ['trailing slash matches directories only', 'tmp/', 'tmp', true, true],
  ['trailing slash skips files', 'tmp/', 'tmp', false, false],
  ['comments and blank lines are skipped', '# *.yaml\n\n', 'a.yaml', false, false],
  ['question mark matches one character', 'a?.txt', 'ab.txt', false, true],
  ['character class', 'file[0-9].txt', 'file7.txt', false, true],
  ['negated character class', 'file[^0-9].txt', 'file7.txt', false, false],
  ['escaped star is literal', 'a\\*', 'a*', false, true],
  ['escaped star does not glob', 'a\\*', 'ab', false, false],
  ['hidden files under templates/ (Helm default rule)', '', 'templates/.hidden.yaml', false, true],
  ['hidden files elsewhere are kept', '', '.hidden', false, false],
  // Helm's quirk: a negated rule ignores whatever it does not match.
  ['negation ignores non-matches', '!keep.txt', 'other.txt', false, true],
  ['negation keeps matches', '!keep.txt', 'keep.txt', false, false],
  ['the chart root itself is never ignored', '*', '.', true, false],
  ['malformed pattern never matches', 'a[', 'a[', false, false],
];

for (const [name, rules, path, isDir, ignored] of cases) {
  test(`helmignore: ${name}`, () => assert.equal(new HelmIgnore(rules).ignores(path, isDir), ignored));
}

test('helmignore: ** is refused with Helm error text', () => {
  assert.throws(() => new HelmIgnore('ok\nfoo/**/bar\n'), {
    message: '.helmignore:2: double-star (**) syntax is not supported',
  });
});

test('go filepath.Match: bad patterns are null', () => {
  for (const p of ['[', 'a\\', '[]', '[a-]', '[z-a]']) assert.equal(goMatchRegex(p), null, p);
  assert.ok(goMatchRegex('[]a]') === null);
  assert.ok(goMatchRegex('[\\]]')!.test(']'));
});

test('go filepath.Match: many stars against a long near-miss answer (linear time, no backtracking)', () => {
  const re = goMatchRegex(`${'*a'.repeat(20)}*b`)!;
  assert.equal(re.test('a'.repeat(5000)), false);
  assert.equal(re.test(`${'a'.repeat(5000)}b`), true);
  assert.equal(goMatchRegex('[[:]x')!.test('[x'), true); // `[` inside a class is a plain character
  assert.equal(goMatchRegex('?')!.test('😀'), true); // one character, as Go's runes
});

test('loadChartDirectory drops ignored files and whole ignored directories', () => {
  const files = new Map(
    Object.entries({
      'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
      'c/.helmignore': '# packaging junk\n*.orig\nscratch/\n',
      'c/templates/cm.yaml': 'kind: ConfigMap\n',
      'c/templates/cm.yaml.orig': 'kind: Broken {{\n',
      'c/templates/.swp': '{{ broken',
      'c/scratch/deep/notes.txt': 'x',
      'c/files/keep.txt': 'y',
    }).map(([k, v]) => [k, enc.encode(v)]),
  );
  const chart = loadChartDirectory(files);
  assert.deepEqual(
    chart.templates.map((t) => t.name),
    ['templates/cm.yaml'],
  );
  assert.deepEqual(
    chart.files.map((f) => f.name),
    ['.helmignore', 'files/keep.txt'],
  );
});

test('loadChartDirectory: ignoring Chart.yaml leaves no chart', () => {
  const files = new Map([
    ['Chart.yaml', enc.encode('apiVersion: v2\nname: c\nversion: 1.0.0\n')],
    ['.helmignore', enc.encode('Chart.yaml\n')],
  ]);
  assert.throws(
    () => loadChartDirectory(files),
    (e: unknown) => e instanceof ChartError && /Chart.yaml/.test(e.message),
  );
});
