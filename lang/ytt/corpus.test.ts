// The corpus of data-values cases under testdata/corpus/: each directory holds
// the files given to ytt in name order (plus `lib/`, the library directory
// given with -f), and the goldens ytt printed for them:
//   expected.json / expected.yaml   `ytt -f ... --data-values-inspect [-o json]`
//   expected.err                    ytt's error (stderr) when it fails
//   expected.openapi.yaml           `--data-values-schema-inspect -o openapi-v3`
// The goldens were written by ytt v0.45.9 (built from carvel-dev/ytt tag v0.45.9
// with `go build -mod=vendor ./cmd/ytt`, Go 1.19) and agreed with lang/ytt.
// When a `ytt` binary is on PATH, each case is also run through it live
// (differential test); otherwise that part is skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../test/support/repo-root.js';
import {
  dataValuesJson,
  dataValuesYaml,
  invalidationsText,
  openApiYaml,
  resolveDataValues,
  resolveSchema,
  type ResolveInput,
} from './index.js';

const CORPUS = join(repoRoot(import.meta.url), 'lang/ytt/testdata/corpus');
const cases = readdirSync(CORPUS)
  .filter((d) => statSync(join(CORPUS, d)).isDirectory())
  .sort();

function yttOnPath(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v ytt'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}
const YTT = yttOnPath();

interface Case {
  dir: string;
  files: string[];
  input: ResolveInput;
}

function loadCase(name: string): Case {
  const dir = join(CORPUS, name);
  const files = readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('expected'))
    .sort();
  const library: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, 'lib', rel)).sort()) {
      const r = rel ? `${rel}/${e}` : e;
      if (statSync(join(dir, 'lib', r)).isDirectory()) walk(r);
      else {
        const m = /^_ytt_lib\/([^/]+)\/(.*)$/.exec(r);
        library[m ? `@${m[1]}:${m[2]}` : r] = `lib/${r}`;
      }
    }
  };
  if (existsSync(join(dir, 'lib'))) walk('');
  const reader = { read: (p: string) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : undefined) };
  return { dir, files, input: { files, reader, library } };
}

/** What our engine prints for `--data-values-inspect` (stdout, or the error as ytt writes it). */
function ours(c: Case, mode: 'json' | 'yaml'): { out?: string; err?: string } {
  try {
    const r = resolveDataValues(c.input);
    const inv = invalidationsText(r.invalidations);
    if (inv) return { err: `ytt: Error: ${inv}` };
    return { out: mode === 'json' ? dataValuesJson(r.values) : dataValuesYaml(r.values) };
  } catch (e) {
    return { err: `ytt: Error: ${(e as Error).message}` };
  }
}

function yttArgs(c: Case): string[] {
  const args = c.files.flatMap((f) => ['-f', f]);
  if (existsSync(join(c.dir, 'lib'))) args.push('-f', 'lib');
  return args;
}

test('the corpus has at least 40 cases', () => {
  assert.ok(cases.length >= 40, `only ${cases.length} cases`);
});

for (const name of cases) {
  test(`corpus ${name}: agrees with the goldens ytt v0.45.9 wrote`, () => {
    const c = loadCase(name);
    const golden = (f: string): string | undefined =>
      existsSync(join(c.dir, f)) ? readFileSync(join(c.dir, f), 'utf8') : undefined;
    const json = golden('expected.json');
    const err = golden('expected.err');
    if (json !== undefined) {
      assert.equal(ours(c, 'json').out, json, 'json');
      assert.equal(ours(c, 'yaml').out, golden('expected.yaml'), 'yaml');
    } else {
      assert.ok(err !== undefined, 'a case has expected.json or expected.err');
      assert.equal(ours(c, 'json').err?.trimEnd(), err.trimEnd(), 'error');
    }
    const openapi = golden('expected.openapi.yaml');
    if (openapi !== undefined) assert.equal(openApiYaml(resolveSchema(c.input)), openapi, 'openapi');
  });

  test(`corpus ${name}: differential against ytt on PATH`, (t) => {
    if (!YTT) {
      t.skip('no ytt on PATH');
      return;
    }
    const c = loadCase(name);
    const run = (extra: string[]): { out: string; err: string; ok: boolean } => {
      const r = spawnSync(YTT, [...yttArgs(c), ...extra], { cwd: c.dir, encoding: 'utf8' });
      return { out: r.stdout, err: r.stderr, ok: r.status === 0 };
    };
    const j = run(['--data-values-inspect', '-o', 'json']);
    const mine = ours(c, 'json');
    if (j.ok) assert.equal(mine.out, j.out, 'json');
    else assert.equal(mine.err?.trimEnd(), j.err.trimEnd(), 'error');
    if (j.ok) assert.equal(ours(c, 'yaml').out, run(['--data-values-inspect']).out, 'yaml');
    if (existsSync(join(c.dir, 'expected.openapi.yaml'))) {
      const o = execFileSync(YTT, [...yttArgs(c), '--data-values-schema-inspect', '-o', 'openapi-v3'], {
        cwd: c.dir,
        encoding: 'utf8',
      });
      assert.equal(openApiYaml(resolveSchema(c.input)), o, 'openapi');
    }
  });
}
