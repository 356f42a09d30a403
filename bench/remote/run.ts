/**
 * Remote render (issue 12, "Speed"): a generated 300-file repository rendered
 * by a second, cold client (its own git checkout of the same commit) against a
 * warm service, next to a warm local daemon rendering the same files in the
 * same run. Reports bytes uploaded (target: 0 for an unchanged commit, only
 * the changed file after an edit) and wall time as a ratio of the local
 * daemon's. Needs a build (dist/) and openssl; no timing is asserted.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRepo } from '../daemon/repo.js';
import { fmtMs, median, printTable } from '../lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
const cli = join(repoRoot, 'dist/bin/kubecfg.js');
const serverMain = join(repoRoot, 'dist/server/remote/main.js');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-remote-'));
const token = randomBytes(32).toString('hex');

function sh(cmd: string, args: string[], cwd = tmp): void {
  execFileSync(cmd, args, { cwd, stdio: 'ignore' });
}

function kubecfg(cwd: string, args: string[], extra: Record<string, string> = {}): number {
  const env = { ...process.env, XDG_RUNTIME_DIR: join(tmp, 'run'), XDG_STATE_HOME: join(tmp, 'state'), ...extra };
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`kubecfg ${args.join(' ')} failed: ${r.stderr}`);
  return ms;
}

function uploadedBytes(url: string, ca: string): Promise<number> {
  return new Promise((res, rej) => {
    request(url + '/metrics', { ca, agent: false }, (r) => {
      let text = '';
      r.setEncoding('utf8').on('data', (c: string) => (text += c));
      r.on('end', () => res(Number(/kubecfg_remote_upload_bytes_total\{tenant="bench"\} (\d+)/.exec(text)?.[1] ?? 0)));
    })
      .on('error', rej)
      .end();
  });
}

let server: ReturnType<typeof spawn> | undefined;
try {
  mkdirSync(join(tmp, 'run'), { mode: 0o700 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  sh('openssl', ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=bench-ca']);
  sh('openssl', ['req', ...ec, '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(tmp, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  sh('openssl', [
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'srv.crt',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  ]);
  writeFileSync(join(tmp, 'tokens.json'), JSON.stringify({ tenants: [{ name: 'bench', token, maxConcurrent: 4 }] }), {
    mode: 0o600,
  });
  server = spawn(
    process.execPath,
    [
      serverMain,
      '--listen',
      '127.0.0.1:0',
      '--tls-cert',
      join(tmp, 'srv.crt'),
      '--tls-key',
      join(tmp, 'srv.key'),
      '--tokens',
      join(tmp, 'tokens.json'),
      '--store',
      join(tmp, 'store'),
      '--work-dir',
      join(tmp, 'work'),
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((res, rej) => {
    let err = '';
    server!.stderr!.setEncoding('utf8').on('data', (c: string) => {
      err += c;
      const m = /READY (\d+)/.exec(err);
      if (m) res(Number(m[1]));
    });
    server!.on('exit', () => rej(new Error(`service failed: ${err}`)));
  });
  const url = `https://127.0.0.1:${port}`;
  const ca = readFileSync(join(tmp, 'ca.crt'), 'utf8');
  const remoteEnv = { KUBECFG_REMOTE: url, KUBECFG_REMOTE_TOKEN: token, KUBECFG_REMOTE_CA: join(tmp, 'ca.crt') };

  // One commit, two checkouts: the first runner warms the service, the second arrives cold.
  const origin = join(tmp, 'origin');
  const repo = writeRepo(origin);
  const mainRel = relative(origin, repo.main);
  const leafRel = relative(origin, repo.leaf);
  const git = (cwd: string, ...args: string[]): void =>
    sh('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=b', ...args], cwd);
  git(origin, 'init', '-q');
  git(origin, 'add', '.');
  git(origin, 'commit', '-q', '-m', 'bench');
  const runnerA = join(tmp, 'runner-a');
  const runnerB = join(tmp, 'runner-b');
  for (const r of [runnerA, runnerB]) git(tmp, 'clone', '-q', origin, r);
  cpSync(origin, join(tmp, 'local'), { recursive: true });
  const trackedFiles = Number(
    execFileSync('git', ['ls-files', '-s'], { cwd: origin, encoding: 'utf8' }).split('\n').filter(Boolean).length,
  );
  // Let the files age past the racy window, as a real checkout's are (docs/cache.md).
  await new Promise((r) => setTimeout(r, 3000));

  const warmUp = kubecfg(runnerA, ['show', mainRel], remoteEnv);
  const before = await uploadedBytes(url, ca);
  const secondCold = kubecfg(runnerB, ['show', mainRel], remoteEnv);
  const uploadedUnchanged = (await uploadedBytes(url, ca)) - before;
  const secondWarm = median(Array.from({ length: runs }, () => kubecfg(runnerB, ['show', mainRel], remoteEnv)));
  const edits: number[] = [];
  const editUploads: number[] = [];
  let leafSize = 0;
  for (let i = 0; i < runs; i++) {
    const leaf = join(runnerB, leafRel);
    writeFileSync(leaf, readFileSync(leaf, 'utf8').replace(/weight:: \d+/, `weight:: ${100 + i}`));
    leafSize = statSync(leaf).size;
    const b0 = await uploadedBytes(url, ca);
    edits.push(kubecfg(runnerB, ['show', mainRel], remoteEnv));
    editUploads.push((await uploadedBytes(url, ca)) - b0);
  }

  // The local reference: a warm per-user daemon on the same files.
  const local = join(tmp, 'local');
  kubecfg(local, ['daemon', 'start']);
  kubecfg(local, ['show', mainRel]);
  const localWarm = median(Array.from({ length: runs }, () => kubecfg(local, ['show', mainRel])));
  const localEdits: number[] = [];
  for (let i = 0; i < runs; i++) {
    const leaf = join(local, leafRel);
    writeFileSync(leaf, readFileSync(leaf, 'utf8').replace(/weight:: \d+/, `weight:: ${100 + i}`));
    localEdits.push(kubecfg(local, ['show', mainRel]));
  }
  kubecfg(local, ['daemon', 'stop']);

  console.log(
    `generated repository: ${trackedFiles} tracked files; first runner (warms the service): ${fmtMs(warmUp)}\n`,
  );
  printTable([
    ['figure', 'remote', 'warm local daemon', 'ratio', 'target'],
    [
      'second cold client, unchanged commit',
      fmtMs(secondCold),
      fmtMs(localWarm),
      (secondCold / localWarm).toFixed(2) + 'x',
      '-',
    ],
    ['  bytes uploaded', String(uploadedUnchanged), '-', '-', '0'],
    ['repeat (same client)', fmtMs(secondWarm), fmtMs(localWarm), (secondWarm / localWarm).toFixed(2) + 'x', '-'],
    [
      'after a one-value edit',
      fmtMs(median(edits)),
      fmtMs(median(localEdits)),
      (median(edits) / median(localEdits)).toFixed(2) + 'x',
      '-',
    ],
    ['  bytes uploaded per edit', String(median(editUploads)), `(file: ${leafSize})`, '-', 'the changed file only'],
  ]);
} finally {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  rmSync(tmp, { recursive: true, force: true });
}
