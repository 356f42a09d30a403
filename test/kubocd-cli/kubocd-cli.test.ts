/**
 * `kubecfg kubocd render` and `kubecfg kubocd dump package`: in process
 * (runCommand, as the worker and --no-daemon run it) and through the built
 * CLI with --no-daemon and the daemon. The fixtures of test/kubocd are copied
 * to a temp dir with the package's module switched to a `local` chart source,
 * so the chart's manifests are rendered too; `--out DIR` gets model.yaml
 * first; a bad package is a located error with exit 1 and files produced
 * before the failure; dump lists functions outside the KuboCD list.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import type { CommandName } from '../../server/worker/messages.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { repoRoot } from '../support/repo-root.js';
import { NO_TTY } from '../support/command-params.js';

const fixtures = join(repoRoot(import.meta.url), 'test/kubocd/fixtures');
const tty = NO_TTY;

function setUp(dir: string): void {
  cpSync(fixtures, dir, { recursive: true });
  const pkg = readFileSync(join(dir, 'podinfo-package.yaml'), 'utf8').replace(
    /source:\n\s+oci:\n\s+repository: .*\n\s+tag: .*\n/,
    'source:\n      local:\n        path: ./chart\n',
  );
  writeFileSync(join(dir, 'local-package.yaml'), pkg);
  writeFileSync(
    join(dir, 'bad-package.yaml'),
    'apiVersion: v1alpha1\ntype: Package\nname: bad\ntag: v1\nmodules:\n  - name: main\n    source:\n      local:\n        path: ./chart\n' +
      '    values: |\n      a: {{ now }}\n      b: {{ env "HOME" }}\n',
  );
}

const RENDER_FLAGS = { package: 'local-package.yaml', context: ['context.yaml'], config: ['config.yaml'] };

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

describe('kubocd commands in process', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-kubocd-'));
    setUp(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (command: CommandName, args: string[], flags: Record<string, FlagValue>) => {
    const params: CommandParams = { requestId: 'r', args, flags, cwd: dir, env: {}, tty };
    return runCommand(command, params, { shouldStop: () => false, testHooks: false });
  };

  test('render prints model.yaml first, the HelmRelease, then the local chart manifests', () => {
    const o = run('kubocd-render', ['podinfo-release.yaml'], RENDER_FLAGS);
    assert.equal(o.exitCode, 0, o.stderr);
    assert.equal(o.stderr, '');
    const sources = [...o.stdout.matchAll(/^# Source: (.*)$/gm)].map((m) => m[1]);
    assert.deepEqual(sources, [
      'model.yaml',
      'helmReleases/podinfo1-main.yaml',
      'manifests/main/podinfo/templates/deployment.yaml',
      'manifests/main/podinfo/templates/ingress.yaml',
    ]);
    assert.match(o.stdout, /host: podinfo\.example\.com/);
    assert.ok(o.cacheable);
    assert.ok(o.deps.some((d) => d.path.endsWith('/chart/templates/deployment.yaml')));
  });

  test('--out writes the same files, model.yaml first, and is not cached', () => {
    const out = join(dir, 'out');
    const o = run('kubocd-render', ['podinfo-release.yaml'], { ...RENDER_FLAGS, out: 'out' });
    assert.equal(o.exitCode, 0, o.stderr);
    assert.equal(o.stdout, '');
    assert.equal(o.cacheable, false);
    assert.deepEqual(listFiles(out), [
      'helmReleases/podinfo1-main.yaml',
      'manifests/main/podinfo/templates/deployment.yaml',
      'manifests/main/podinfo/templates/ingress.yaml',
      'model.yaml',
    ]);
    const printed = run('kubocd-render', ['podinfo-release.yaml'], RENDER_FLAGS).stdout;
    assert.ok(printed.includes(readFileSync(join(out, 'model.yaml'), 'utf8')));
  });

  test('a module with a remote chart source gets its HelmRelease and a note', () => {
    const o = run('kubocd-render', ['podinfo-release.yaml'], { ...RENDER_FLAGS, package: 'podinfo-package.yaml' });
    assert.equal(o.exitCode, 0);
    assert.match(o.stderr, /^module main: only local chart sources are read/);
    assert.doesNotMatch(o.stdout, /# Source: manifests\//);
  });

  const failures: Array<{ name: string; flags: Record<string, FlagValue>; args?: string[]; message: RegExp }> = [
    { name: 'no --package', flags: {}, message: /--package is required/ },
    {
      name: 'an oci:// package with a malformed reference',
      flags: { package: 'oci://r.example/P:v1' },
      message: /--package oci:\/\/r\.example\/P:v1: /,
    },
    { name: 'a missing release', flags: RENDER_FLAGS, args: ['nope.yaml'], message: /nope\.yaml/ },
    { name: 'a package using functions outside the list', flags: { package: 'bad-package.yaml' }, message: /now/ },
  ];
  for (const f of failures) {
    test(`render fails clearly on ${f.name}`, () => {
      const o = run('kubocd-render', f.args ?? ['podinfo-release.yaml'], f.flags);
      assert.equal(o.exitCode, 1);
      assert.notEqual(o.stderr, '');
      assert.match(o.stderr, f.message);
    });
  }

  test('dump package prints the manifest, and lists functions outside the list with exit 1', () => {
    const good = run('kubocd-dump-package', ['podinfo-package.yaml'], {});
    assert.equal(good.exitCode, 0, good.stderr);
    assert.match(good.stdout, /^apiVersion: v1alpha1\n/);
    const bad = run('kubocd-dump-package', ['bad-package.yaml'], {});
    assert.equal(bad.exitCode, 1);
    assert.match(bad.stderr, /bad-package\.yaml: function "env" is not in the KuboCD function list/);
    assert.match(bad.stderr, /bad-package\.yaml: function "now" is not in the KuboCD function list/);
  });
});

const MODES = [
  { name: 'no-daemon', flags: ['--no-daemon'] },
  { name: 'daemon', flags: [] as string[] },
];

describe('kubocd through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    setUp(sb.work);
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    test(`${mode.name}: render to stdout and to --out, dump package`, async () => {
      const args = ['kubocd', 'render', 'podinfo-release.yaml', '--package', 'local-package.yaml'];
      const ctx = ['--context', 'context.yaml', '--config', 'config.yaml'];
      const printed = await sb.run([...mode.flags, ...args, ...ctx]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.match(printed.stdout, /^---\n# Source: model.yaml\n/);
      const outDir = `out-${mode.name}`;
      const written = await sb.run([...mode.flags, ...args, ...ctx, '--out', outDir]);
      assert.equal(written.code, 0, written.stderr);
      assert.ok(printed.stdout.includes(readFileSync(join(sb.work, outDir, 'model.yaml'), 'utf8')));
      const dump = await sb.run([...mode.flags, 'kubocd', 'dump', 'package', 'bad-package.yaml']);
      assert.equal(dump.code, 1);
      assert.match(dump.stderr, /function "now" is not in the KuboCD function list/);
    });
  }
});
