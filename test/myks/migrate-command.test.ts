/**
 * `kubecfg myks migrate` in process (runCommand, as the worker runs it) on a
 * legacy repository in a temp dir: --dry-run prints and writes nothing; a run
 * writes the tree with the client's umask; a second run refuses to overwrite
 * and writes nothing; --verify reports the proof; bad input is a clear error.
 * With MYKS_REPO naming a mykso/myks checkout, every example converts and
 * verifies.
 */
import assert from 'node:assert/strict';
import {
  cpSync,
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
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandParams, FlagValue } from '../../protocol/index.js';
import { runCommand } from '../../server/commands/run.js';
import { BUILT, Sandbox } from '../daemon/harness.js';
import { NO_TTY } from '../support/command-params.js';

const tty = NO_TTY;

const LEGACY: Record<string, string> = {
  'envs/env-data.yaml':
    '#@data/values\n---\nenvironment:\n  applications:\n  - proto: web\n#! the namespace\nhelm:\n  namespace: web\n',
  'envs/prod/env-data.yaml': '#@data/values\n---\nenvironment:\n  id: prod\n',
  'prototypes/web/app-data.yaml':
    '#@data/values-schema\n---\n#@overlay/match-child-defaults missing_ok=True\napplication:\n  port: 80\n',
};

const run = (cwd: string, args: string[], flags: Record<string, FlagValue> = {}, umask?: number) => {
  const params: CommandParams = {
    requestId: 'r',
    args,
    flags,
    cwd,
    env: {},
    tty,
    ...(umask === undefined ? {} : { umask }),
  };
  return runCommand('myks-migrate', params, { shouldStop: () => false, testHooks: false });
};

describe('myks migrate', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kcfg-myks-'));
    for (const [p, t] of Object.entries(LEGACY)) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), t);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--dry-run prints every file and writes none', () => {
    const o = run(dir, [], { 'dry-run': true });
    assert.equal(o.exitCode, 0, o.stderr);
    assert.match(o.stdout, /^# prototypes\/web\/proto\.k\nimport myks\n/);
    assert.match(o.stdout, /\n# envs\/env\.k\n[\s\S]*# the namespace\n {4}helm\.namespace = "web"\n/);
    assert.ok(!existsSync(join(dir, 'kcl.mod')));
    assert.equal(o.cacheable, false);
  });

  test("writes the tree with the client's modes, and --verify proves it", () => {
    const o = run(dir, ['.'], { verify: true }, 0o027);
    assert.equal(o.exitCode, 0, o.stderr);
    assert.match(o.stderr, /verified: 1 environment\(s\) resolve to the legacy values \(prod\)/);
    for (const f of [
      'kcl.mod',
      'main.k',
      'envs/env.k',
      'envs/defaults.k',
      'envs/apps.k',
      'envs/prod/env.k',
      'prototypes/web/proto.k',
    ])
      assert.equal(statSync(join(dir, f)).mode & 0o777, 0o640, f);
    // and kcl run of the written tree prints the environment
    const k = runCommand(
      'kcl-run',
      { requestId: 'r', args: ['main.k'], flags: {}, cwd: dir, env: {}, tty },
      { shouldStop: () => false, testHooks: false },
    );
    assert.equal(k.exitCode, 0, k.stderr);
    assert.match(k.stdout, /^environments:\n {2}prod:\n/);
    assert.match(k.stdout, /\n {4}applications:\n {6}web:\n {8}proto: web\n/);
  });

  test('refuses to overwrite existing files, and writes nothing', () => {
    const before = readFileSync(join(dir, 'envs/env.k'), 'utf8');
    writeFileSync(join(dir, 'envs/prod/env.k'), '# mine\n');
    rmSync(join(dir, 'main.k'));
    const o = run(dir, []);
    assert.equal(o.exitCode, 1);
    assert.match(o.stderr, /^refusing to overwrite existing files \(nothing was written\): .*envs\/env\.k/);
    assert.ok(!existsSync(join(dir, 'main.k')));
    assert.equal(readFileSync(join(dir, 'envs/prod/env.k'), 'utf8'), '# mine\n');
    assert.ok(!existsSync(join(dir, 'envs/prod/patch.k')), 'nothing frozen: no patch.k');
    assert.equal(readFileSync(join(dir, 'envs/env.k'), 'utf8'), before);
  });

  test('a directory that is not a myks repository, or invalid legacy data, is a clear error', () => {
    const o = run(tmpdir(), ['no-such-dir-here']);
    assert.equal(o.exitCode, 1);
    assert.match(o.stderr, /^.*no-such-dir-here: envs: no such directory/);
    const bad = mkdtempSync(join(tmpdir(), 'kcfg-myks-bad-'));
    try {
      mkdirSync(join(bad, 'envs'));
      writeFileSync(join(bad, 'envs/env-data.yaml'), '#@data/values\n---\nnot_declared: 1\n');
      const b = run(bad, [], { 'dry-run': true });
      assert.equal(b.exitCode, 1);
      assert.match(
        b.stderr,
        /Map item \(key 'not_declared'\) on line envs\/env-data\.yaml:3:\n\s+Expected number of matched nodes to be 1, but was 0/,
      );
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

test('myks examples: each converts and --verify passes', (t) => {
  const repo = process.env.MYKS_REPO;
  if (!repo || !existsSync(join(repo, 'examples'))) {
    t.skip('set MYKS_REPO to a mykso/myks checkout');
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'kcfg-myks-ex-'));
  try {
    for (const ex of readdirSync(join(repo, 'examples')).filter((e) => existsSync(join(repo, 'examples', e, 'envs')))) {
      cpSync(join(repo, 'examples', ex), join(work, ex), { recursive: true });
      const o = run(join(work, ex), [], { verify: true });
      assert.equal(o.exitCode, 0, `${ex}: ${o.stderr}`);
      assert.match(o.stderr, /verified: /, ex);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

describe(
  'myks migrate through the CLI and the daemon',
  { skip: !BUILT && 'run npm run build first', timeout: 120_000 },
  () => {
    let sb: Sandbox;
    before(() => {
      sb = new Sandbox();
      for (const [p, t] of Object.entries(LEGACY)) {
        mkdirSync(dirname(join(sb.work, 'legacy', p)), { recursive: true });
        writeFileSync(join(sb.work, 'legacy', p), t);
      }
    });
    after(() => sb.cleanup());

    test('dry run, write and verify, refusal, then kcl run of the tree', async () => {
      const dry = await sb.run(['myks', 'migrate', '--dry-run', 'legacy']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /\n# main\.k\n/);
      assert.ok(!existsSync(join(sb.work, 'legacy/main.k')));
      const w = await sb.run(['myks', 'migrate', '--verify', 'legacy']);
      assert.equal(w.code, 0, w.stderr);
      assert.match(w.stderr, /verified: 1 environment\(s\)/);
      const again = await sb.run(['myks', 'migrate', 'legacy']);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /refusing to overwrite existing files/);
      const k = await sb.run(['kcl', 'run', 'legacy/main.k']);
      assert.equal(k.code, 0, k.stderr);
      assert.match(k.stdout, /^environments:\n {2}prod:\n/);
    });
  },
);
