// The `kubecfg` command users run (dist/bin/kubecfg, scripts/kubecfg.sh) starts Node from the
// startup snapshot (dist/bin/kubecfg.blob) for a command that renders in its own process, and plain
// Node otherwise. What is tested: the same bytes and exit codes as `node dist/bin/kubecfg.js`, which
// start-up each case gets (KUBECFG_BIN_TRACE says), a path with spaces through a symlink (npm's
// .bin link), a first call that leaves a working daemon, and another tree's CLI started with this
// blob. No timing.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, REPO_ROOT, Sandbox, waitFor } from '../daemon/harness.js';

const BIN = join(REPO_ROOT, 'dist', 'bin', 'kubecfg');
const BLOB = join(REPO_ROOT, 'dist', 'bin', 'kubecfg.blob');
const BUILT = spawnSync('test', ['-x', BIN]).status === 0 && spawnSync('test', ['-f', BLOB]).status === 0;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The V8 flags the blob was built with, which the wrapper passes (Node refuses the blob without them). */
const V8_FLAGS = BUILT
  ? (/^v8_flags='([^']*)'$/m.exec(readFileSync(BIN, 'utf8'))?.[1] ?? '').split(' ').filter(Boolean)
  : [];
// Paths may hold spaces (a checkout under such a directory).
const TRACE = /^kubecfg: node (--snapshot-blob .*?kubecfg\.blob )?.*?kubecfg\.js\n/;
/** The wrapper's run with its trace line taken off stderr, and whether it used the snapshot. */
async function viaBin(sb: Sandbox, args: string[], env: Record<string, string> = {}, bin = BIN) {
  const r = await run(bin, args, { ...sb.env, KUBECFG_BIN_TRACE: '1', ...env }, sb.work);
  const m = TRACE.exec(r.stderr);
  assert.ok(m, `no trace line in: ${r.stderr}`);
  return { ...r, stderr: r.stderr.slice(m[0].length), snapshot: m[1] !== undefined };
}

describe(
  'the kubecfg command and its startup snapshot',
  { skip: !BUILT && 'run npm run build first', timeout: 300_000 },
  () => {
    let sb: Sandbox;
    before(() => {
      // The daemon tests' hooks would send the snapshot back to plain loading (their module is import()ed).
      sb = new Sandbox({ KUBECFG_DAEMON_TEST_HOOKS: '', KUBECFG_DAEMON_TEST_HOOK_MODULE: '' });
      writeFileSync(join(sb.work, 'one.jsonnet'), '1\n');
      writeFileSync(
        join(sb.work, 'cm.jsonnet'),
        "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { k: std.md5('v'), t: std.extVar('t') } } }\n",
      );
      writeFileSync(join(sb.work, 'bad.jsonnet'), "{ a: error 'boom' }\n");
      writeFileSync(join(sb.work, 'lib.libsonnet'), '{ n: 2 }\n');
      writeFileSync(join(sb.work, 'two.jsonnet'), "(import 'lib.libsonnet') { m: self.n * 2 }\n");
    });
    after(async () => {
      await sb.cleanup();
    });

    const cases: Array<[string, string[]]> = [
      ['jsonnet', ['--no-daemon', 'jsonnet', 'one.jsonnet']],
      ['show (YAML)', ['--no-daemon', 'show', '-V', 't=x', 'cm.jsonnet']],
      ['show -o json of two inputs', ['--no-daemon', 'show', '-o', 'json', '-V', 't=y', 'cm.jsonnet', 'two.jsonnet']],
      ['a runtime error', ['--no-daemon', 'show', 'bad.jsonnet']],
      ['a missing file', ['--no-daemon', 'jsonnet', 'missing.jsonnet']],
      ['a usage error', ['--no-daemon', 'show', '--no-such-flag', 'one.jsonnet']],
    ];
    for (const [name, args] of cases) {
      it(`${name}: from the snapshot, the bytes and exit code of node kubecfg.js`, async () => {
        const plain = await run(process.execPath, [CLI, ...args], sb.env, sb.work);
        const bin = await viaBin(sb, args);
        assert.equal(bin.snapshot, true);
        assert.deepEqual({ code: bin.code, stdout: bin.stdout, stderr: bin.stderr }, plain);
      });
    }

    it('KUBECFG_DAEMON=0 and KUBECFG_NO_DAEMON=true render from the snapshot too', async () => {
      for (const env of [{ KUBECFG_DAEMON: '0' }, { KUBECFG_NO_DAEMON: 'true' }] as Array<Record<string, string>>) {
        const r = await viaBin(sb, ['jsonnet', 'one.jsonnet'], env);
        assert.deepEqual([r.snapshot, r.code, r.stdout], [true, 0, '1\n'], JSON.stringify(env));
      }
    });

    it('plain Node where the snapshot would be wasted or refused', async () => {
      const plainCases: Array<[string, string[], Record<string, string>]> = [
        ['version', ['version'], {}],
        ['daemon status', ['daemon', 'status'], {}],
        ['--help', ['show', '--help'], {}],
        [
          'NODE_OPTIONS (V8 flags there make Node refuse a snapshot)',
          ['--no-daemon', 'jsonnet', 'one.jsonnet'],
          { NODE_OPTIONS: '--max-old-space-size=512' },
        ],
        ['KUBECFG_STARTUP_SNAPSHOT=0', ['--no-daemon', 'jsonnet', 'one.jsonnet'], { KUBECFG_STARTUP_SNAPSHOT: '0' }],
      ];
      for (const [name, args, env] of plainCases) {
        const r = await viaBin(sb, args, env);
        assert.equal(r.snapshot, false, name);
        const plain = await run(process.execPath, [CLI, ...args], { ...sb.env, ...env }, sb.work);
        assert.deepEqual({ code: r.code, stdout: r.stdout, stderr: r.stderr }, plain, name);
      }
    });

    it('with a daemon socket where the CLI looks, plain Node (a warm call)', async () => {
      const dir = join(sb.runtimeDir, 'kubecfg');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // A socket nobody answers: the CLI then renders here as a first call, from plain Node.
      const server: Server = createServer((s) => s.destroy());
      await new Promise<void>((resolve) => server.listen(join(dir, 'daemon.sock'), resolve));
      try {
        const r = await viaBin(sb, ['jsonnet', 'one.jsonnet'], { KUBECFG_DAEMON: '', KUBECFG_NO_DAEMON: '' });
        assert.equal(r.snapshot, false);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('through a symlink in a directory with spaces, as npm links it', async () => {
      const dir = join(sb.root, 'a dir with spaces', '.bin');
      mkdirSync(dir, { recursive: true });
      symlinkSync(BIN, join(dir, 'kubecfg'));
      const r = await viaBin(sb, ['--no-daemon', 'jsonnet', 'two.jsonnet'], {}, join(dir, 'kubecfg'));
      assert.deepEqual([r.snapshot, r.code, r.stdout, r.stderr], [true, 0, '{\n   "m": 4,\n   "n": 2\n}\n', '']);
    });

    it('a first call renders from the snapshot and leaves a daemon that answers the next call', async () => {
      const first = await viaBin(sb, ['jsonnet', 'two.jsonnet']);
      assert.deepEqual(
        [first.snapshot, first.code, first.stdout, first.stderr],
        [true, 0, '{\n   "m": 4,\n   "n": 2\n}\n', ''],
      );
      await waitFor('the daemon started by the first call', () => sb.daemonPids().length === 1, 30_000);
      await waitFor('its socket', async () => (await viaBin(sb, ['daemon', 'status'])).code === 0, 30_000);
      const warm = await viaBin(sb, ['jsonnet', 'two.jsonnet']);
      assert.deepEqual([warm.snapshot, warm.code, warm.stdout], [false, 0, first.stdout]);
      // The daemon is plain Node: the snapshot's flag is not passed on to what the CLI spawns.
      const [pid] = sb.daemonPids();
      assert.ok(!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--snapshot-blob'));
      assert.equal((await viaBin(sb, ['daemon', 'stop'])).code, 0);
    });

    it("another tree's CLI started with this blob runs from its own files", async () => {
      const dist = join(sb.root, 'other', 'dist');
      mkdirSync(join(dist, 'bin'), { recursive: true });
      for (const f of ['kubecfg.js', 'engine.cjs', 'package.json'])
        copyFileSync(join(REPO_ROOT, 'dist', 'bin', f), join(dist, 'bin', f));
      copyFileSync(join(REPO_ROOT, 'dist', 'build-id.json'), join(dist, 'build-id.json'));
      const args = ['--no-daemon', 'show', '-V', 't=z', 'cm.jsonnet'];
      const other = await run(
        process.execPath,
        ['--snapshot-blob', BLOB, ...V8_FLAGS, join(dist, 'bin', 'kubecfg.js'), ...args],
        sb.env,
        sb.work,
      );
      const plain = await run(process.execPath, [CLI, ...args], sb.env, sb.work);
      assert.deepEqual(other, plain);
    });

    it('the snapshot copy of the CLI has no import() but the two that never run from it', () => {
      // Code deserialised from a snapshot cannot import() (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): the
      // test hooks (sent to plain loading) and the unbundled engine (the snapshot holds the bundle).
      const entry = readFileSync(join(REPO_ROOT, 'dist', 'bin', 'kubecfg.snapshot.cjs'), 'latin1');
      const cli = entry.slice(entry.indexOf('function cliBody('), entry.indexOf("// The startup snapshot's builder"));
      const sites = [...cli.matchAll(/\bimport\((.{0,60})/g)].map((m) => m[1]!);
      assert.equal(sites.length, 2, sites.join('\n'));
      for (const s of sites) assert.match(s, /^unbundled\)|pathToFileURL\)\(path\)\.href\)/);
    });
  },
);
