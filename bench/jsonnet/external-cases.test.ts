/** BENCH_EXTERNAL parsing: names, files, library paths, and the errors a typo gets. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jpathArgs, parseExternalCases } from './external-cases.js';

function withTree(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-external-'));
  try {
    mkdirSync(join(dir, 'vendor'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'main.jsonnet'), '{}');
    writeFileSync(join(dir, 'other.jsonnet'), '[]');
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('no variable or a blank one means no external case', () => {
  assert.deepEqual(parseExternalCases(undefined), []);
  assert.deepEqual(parseExternalCases('  '), []);
});

test('entries carry their name, file and library paths in order', () => {
  withTree((d) => {
    const cases = parseExternalCases(`kp=${d}/main.jsonnet:${d}/vendor:${d}/lib; small=${d}/other.jsonnet;`);
    assert.deepEqual(cases, [
      { name: 'kp', file: `${d}/main.jsonnet`, jpath: [`${d}/vendor`, `${d}/lib`], external: true },
      { name: 'small', file: `${d}/other.jsonnet`, jpath: [], external: true },
    ]);
    assert.deepEqual(jpathArgs(cases[0]!.jpath), ['-J', `${d}/vendor`, '-J', `${d}/lib`]);
  });
});

test('malformed entries are reported by name before anything runs', () => {
  withTree((d) => {
    const cases: [string, RegExp][] = [
      [`${d}/main.jsonnet`, /expected name=file/],
      [`=${d}/main.jsonnet`, /expected name=file/],
      ['kp=', /no file after "kp="/],
      [`kp=${d}/missing.jsonnet`, /case "kp": .*missing\.jsonnet is not a file/],
      [`kp=${d}/vendor`, /case "kp": .*vendor is not a file/],
      [`kp=${d}/main.jsonnet:${d}/nope`, /case "kp": library path .*nope is not a directory/],
      [`kp=${d}/main.jsonnet;kp=${d}/other.jsonnet`, /case "kp" is named twice/],
    ];
    for (const [spec, message] of cases) assert.throws(() => parseExternalCases(spec), message, spec);
  });
});
