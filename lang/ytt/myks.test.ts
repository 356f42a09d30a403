// myks's file order for one leaf and one application (internal/myks in
// mykso/myks: collectBySubpath, collectAllFilesByGlob), on an in-memory tree;
// and, when MYKS_REPO names a mykso/myks checkout and `ytt` is on PATH, every
// env-data and app-data file of its examples/ resolved by both ytt and lang/ytt.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  dataValuesJson,
  dataValuesYaml,
  myksAppFiles,
  myksLeafFiles,
  resolveDataValues,
  toPlain,
  type MyksTree,
} from './index.js';

function memTree(paths: string[]): MyksTree {
  const dirs = new Map<string, Set<string>>();
  for (const p of paths) {
    const parts = p.split('/');
    parts.forEach((part, i) => {
      const dir = parts.slice(0, i).join('/');
      if (!dirs.has(dir)) dirs.set(dir, new Set());
      dirs.get(dir)!.add(part);
    });
  }
  return { list: (d) => (dirs.has(d) ? [...dirs.get(d)!] : undefined), isDir: (p) => dirs.has(p) };
}

test('a leaf: env-data files of every level, root first, sorted within a level; the ytt library', () => {
  const tree = memTree([
    'envs/env-data.yaml',
    'envs/a/env-data.z.yaml',
    'envs/a/env-data.b.yaml',
    'envs/a/b/env-data.yaml',
    'envs/x/env-data.yaml',
    'lib/g.star',
    'lib/_ytt_lib/myks/data.lib.yaml',
  ]);
  const f = myksLeafFiles(tree, 'envs/a/b');
  assert.deepEqual(f.envData, [
    'envs/env-data.yaml',
    'envs/a/env-data.b.yaml',
    'envs/a/env-data.z.yaml',
    'envs/a/b/env-data.yaml',
  ]);
  assert.deepEqual(f.library, { 'g.star': 'lib/g.star', '@myks:data.lib.yaml': 'lib/_ytt_lib/myks/data.lib.yaml' });
});

test('an application: prototype app-data, then _proto/<proto>/ of every level, then _apps/<app>/ of every level', () => {
  const tree = memTree([
    'prototypes/web/app-data.yaml',
    'prototypes/web/lib/p.star',
    'envs/env-data.yaml',
    'envs/_apps/site/app-data.yaml',
    'envs/_proto/web/app-data.yaml',
    'envs/dev/env-data.yaml',
    'envs/dev/_proto/web/app-data.x.yaml',
    'envs/dev/_apps/site/app-data.yaml',
    'envs/dev/_apps/site/lib/a.star',
  ]);
  const f = myksAppFiles(tree, 'envs/dev', 'web', 'site');
  assert.deepEqual(f.appData, [
    'prototypes/web/app-data.yaml',
    'envs/_proto/web/app-data.yaml',
    'envs/dev/_proto/web/app-data.x.yaml',
    'envs/_apps/site/app-data.yaml',
    'envs/dev/_apps/site/app-data.yaml',
  ]);
  assert.deepEqual(f.library, { 'p.star': 'prototypes/web/lib/p.star', 'a.star': 'envs/dev/_apps/site/lib/a.star' });
});

const REPO = process.env.MYKS_REPO;
const YTT = spawnSync('sh', ['-c', 'command -v ytt'], { encoding: 'utf8' }).stdout.trim();

test('myks examples: every leaf and application resolves as ytt resolves it', (t) => {
  if (!REPO || !existsSync(join(REPO, 'examples')) || !YTT) {
    t.skip('set MYKS_REPO to a mykso/myks checkout and put ytt on PATH');
    return;
  }
  const schema = join(REPO, 'internal/myks/assets/data-schema.ytt.yaml');
  const examples = readdirSync(join(REPO, 'examples')).filter((e) => existsSync(join(REPO, 'examples', e, 'envs')));
  let compared = 0;
  for (const ex of examples) {
    const root = join(REPO, 'examples', ex);
    const abs = (p: string): string => (p.startsWith('/') ? p : join(root, p));
    const tree: MyksTree = {
      list: (d) => (existsSync(abs(d)) && statSync(abs(d)).isDirectory() ? readdirSync(abs(d)) : undefined),
      isDir: (p) => existsSync(abs(p)) && statSync(abs(p)).isDirectory(),
    };
    const reader = { read: (p: string) => (existsSync(abs(p)) ? readFileSync(abs(p), 'utf8') : undefined) };
    const libDirs = (lib: Record<string, string>): string[] =>
      [
        ...new Set(
          Object.entries(lib).map(([name, path]) =>
            path.slice(
              0,
              path.length - (name.startsWith('@') ? `_ytt_lib/${name.slice(1).replace(':', '/')}` : name).length - 1,
            ),
          ),
        ),
      ].map(abs);
    const ytt = (files: string[], dirs: string[], json: boolean): string =>
      execFileSync(
        YTT,
        [
          ...dirs.flatMap((d) => ['-f', d]),
          ...files.flatMap((f) => ['-f', abs(f)]),
          '--data-values-inspect',
          ...(json ? ['-o', 'json'] : []),
        ],
        { encoding: 'utf8' },
      );
    const leaves: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(abs(d))) {
        const p = `${d}/${e}`;
        if (!e.startsWith('_') && statSync(abs(p)).isDirectory()) {
          if (readdirSync(abs(p)).some((f) => /^env-data.*\.yaml$/.test(f))) leaves.push(p);
          walk(p);
        }
      }
    };
    walk('envs');
    for (const leaf of leaves) {
      const lf = myksLeafFiles(tree, leaf);
      const files = [schema, ...lf.envData];
      const r = resolveDataValues({ files, reader, library: lf.library });
      assert.equal(dataValuesJson(r.values), ytt(files, libDirs(lf.library), true), `${ex} ${leaf}`);
      compared++;
      // @myks:data.lib.yaml as myks writes it for the leaf
      const api = mkdtempSync(join(tmpdir(), 'myks-api-'));
      try {
        mkdirSync(join(api, '_ytt_lib/myks'), { recursive: true });
        const envYaml = dataValuesYaml(r.values);
        writeFileSync(
          join(api, '_ytt_lib/myks/data.lib.yaml'),
          `\n#@ def _env_data():\n${envYaml}\n#@ end\n\n#@ load("@ytt:struct", "struct")\n#@ load("@ytt:yaml", "yaml")\n#@ env_data = struct.encode(yaml.decode(yaml.encode(_env_data())))\n`,
        );
        const env = toPlain(r.values) as { environment?: { applications?: { proto: string; name?: string }[] } };
        for (const app of env.environment?.applications ?? []) {
          const name = app.name || app.proto;
          const af = myksAppFiles(tree, leaf, app.proto, name);
          const files2 = [schema, ...af.envData, ...af.appData];
          const mine = resolveDataValues({
            files: files2,
            reader,
            library: af.library,
            modules: { '@myks:data.lib.yaml': { env_data: toPlain(r.values) } },
          });
          assert.equal(
            dataValuesJson(mine.values),
            ytt(files2, [api, ...libDirs(af.library)], true),
            `${ex} ${leaf} ${name}`,
          );
          compared++;
        }
      } finally {
        rmSync(api, { recursive: true, force: true });
      }
    }
  }
  assert.ok(compared > 0);
});
