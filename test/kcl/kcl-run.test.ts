/**
 * `kubecfg kcl run`: in process (runCommand, as the worker and --no-daemon run it)
 * and through the built CLI with --no-daemon and the daemon. The spec tree of
 * lang/kcl/testdata is copied to a temp dir; the output equals the golden file;
 * every file of the tree (and the kcl.mod probes) is a dependency, so editing an
 * app file changes the next answer, and adding a file to a level's directory does
 * too; -D, -o json and --sort-keys reach the program; a KCL error is KCL's report
 * on stderr with exit 1.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { repoRoot } from '../support/repo-root.js';
import { NO_TTY } from '../support/command-params.js';

const testdata = join(repoRoot(import.meta.url), 'lang/kcl/testdata');
const golden = readFileSync(join(testdata, 'spec-tree.golden.yaml'), 'utf8');
const tty = NO_TTY;

describe('kcl run in process', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-kcl-'));
    cpSync(join(testdata, 'spec-tree'), dir, { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], flags: Record<string, FlagValue> = {}) => {
    const params: CommandParams = { requestId: 'r', args, flags, cwd: dir, env: {}, tty };
    return runCommand('kcl-run', params, { shouldStop: () => false, testHooks: false });
  };

  test('prints the golden output, and records every file read as a dependency', () => {
    const o = run(['main.k']);
    assert.equal(o.exitCode, 0, o.stderr);
    assert.equal(o.stdout, golden);
    assert.ok(o.cacheable);
    const paths = o.deps.map((d) => d.path);
    for (const f of [
      'main.k',
      'kcl.mod',
      'envs/env.k',
      'envs/prod/app-web.k',
      'prototypes/webapp/proto.k',
      'lib/secrets.k',
    ])
      assert.ok(paths.includes(join(dir, f)), `${f} is a dependency`);
  });

  test('-D, -o json and --sort-keys', () => {
    writeFileSync(join(dir, 'opt.k'), 'env = option("env")\nn = option("n", default = 1)\nz = {b = 1, a = 2}\n');
    const o = run(['opt.k'], { argument: ['env=prod', 'n=3'], format: 'json', 'sort-keys': true });
    assert.equal(o.exitCode, 0, o.stderr);
    assert.equal(
      o.stdout,
      '{\n    "env": "prod",\n    "n": 3,\n    "z": {\n        "a": 2,\n        "b": 1\n    }\n}\n',
    );
  });

  test('a KCL error is printed as kcl prints it, with exit code 1 and nothing on stdout', () => {
    writeFileSync(join(dir, 'bad.k'), 'schema S:\n    n: int = 1\ns = S {\n    n = "x"\n}\n');
    const o = run(['bad.k']);
    assert.equal(o.exitCode, 1);
    assert.equal(o.stdout, '');
    assert.equal(
      o.stderr,
      `error[E2G22]: TypeError\n --> ${join(dir, 'bad.k')}:4:5\n  |\n4 |     n = "x"\n  |     ^ expected int, got str(x)\n  |\n` +
        // and where the attribute is declared, as kcl shows it (its grammar tests schema/type/type_fail_*)
        ` --> ${join(dir, 'bad.k')}:2:5\n  |\n2 |     n: int = 1\n  |     ^ variable is defined here, its type is int, but got str(x)\n  |\n`,
    );
  });

  test('a missing input is an error naming it', () => {
    const o = run(['nothere.k']);
    assert.equal(o.exitCode, 1);
    assert.match(o.stderr, /CannotFindModule[\s\S]*nothere\.k: no such file/);
  });
});

const MODES = [
  { name: 'no-daemon', flags: ['--no-daemon'] },
  { name: 'daemon', flags: [] as string[] },
];

describe('kcl run through the CLI', { skip: !BUILT && 'run npm run build first', timeout: 120_000 }, () => {
  let sb: Sandbox;
  before(() => {
    sb = new Sandbox();
    cpSync(join(testdata, 'spec-tree'), sb.work, { recursive: true });
  });
  after(() => sb.cleanup());

  for (const mode of MODES) {
    test(`${mode.name}: the tree, an edit, a new file in a level, an error`, async () => {
      const first = await sb.run([...mode.flags, 'kcl', 'run', 'main.k']);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, golden);
      const again = await sb.run([...mode.flags, 'kcl', 'run', '.']);
      assert.equal(again.stdout, golden);

      const appFile = join(sb.work, 'envs/prod/app-web.k');
      const original = readFileSync(appFile, 'utf8');
      writeFileSync(appFile, original.replace('containerPort = 9090', 'containerPort = 9191'));
      const edited = await sb.run([...mode.flags, 'kcl', 'run', 'main.k']);
      assert.match(edited.stdout, /containerPort: 9191/);

      writeFileSync(join(sb.work, 'envs/prod/extra.k'), '_apps: myks.Apps {\n    web.application.ingress = False\n}\n');
      const added = await sb.run([...mode.flags, 'kcl', 'run', 'main.k']);
      assert.equal(added.code, 1, 'extra.k uses myks without importing it');
      assert.match(added.stderr, /CompileError[\s\S]*extra\.k:1:8[\s\S]*name 'myks' is not defined/);
      writeFileSync(
        join(sb.work, 'envs/prod/extra.k'),
        'import myks\n\n_apps: myks.Apps {\n    web.application.ingress = False\n}\n',
      );
      const fixed = await sb.run([...mode.flags, 'kcl', 'run', 'main.k']);
      assert.equal(fixed.code, 0, fixed.stderr);
      assert.match(fixed.stdout, /ingress: false/);

      rmSync(join(sb.work, 'envs/prod/extra.k'));
      writeFileSync(appFile, original);
    });
  }
});
