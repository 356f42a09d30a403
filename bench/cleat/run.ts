/**
 * `bench/cleat/run`: `cleat export` of a generated 500-Deployment program
 * (plus a Service each, built by typed functions: the Cleat counterpart of
 * bench/jsonnet/kube-lib.jsonnet), next to that Jsonnet program, all in the
 * same run:
 * - through the daemon: the first export (cold: parse, check, evaluate) and
 *   an unchanged repeat (warm: the result cache), and a one-shot process;
 * - in-process: Cleat's check + export, our Jsonnet engine on kube-lib.jsonnet,
 *   and Debian's `jsonnet` process on the same file.
 * Prints medians and ratios; no timing is asserted. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportProgram, type CleatLoader } from '../../lang/cleat/index.js';
import { evaluateToString, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { fsImporter } from '../lib/fs-importer.js';
import { fmtMs, median, printTable, runChild, timeMs } from '../lib/measure.js';
import { cleatProgram } from './program.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
const cli = join(repoRoot, 'dist/bin/kubecfg.js');
const kubeLib = join(repoRoot, 'bench/jsonnet/kube-lib.jsonnet');
const runs = Number(process.env.BENCH_RUNS ?? 5);

function medianOf(n: number, fn: () => number): number {
  return median(Array.from({ length: n }, fn));
}

const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-cleat-'));
const env = {
  ...process.env,
  XDG_RUNTIME_DIR: join(tmp, 'run'),
  XDG_STATE_HOME: join(tmp, 'state'),
  KUBECFG_DAEMON: '',
};

function kubecfg(args: string[]): { ms: number; out: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`kubecfg ${args.join(' ')} failed: ${r.stderr}`);
  return { ms, out: r.stdout };
}

try {
  const dir = join(tmp, 'project');
  mkdirSync(dir);
  const file = join(dir, 'apps.cleat');
  const text = cleatProgram();
  writeFileSync(file, text);
  // Files written in the last seconds are re-hashed on every check (docs/cache.md): let them age.
  await new Promise((r) => setTimeout(r, 3000));

  // In-process: the same work without process start or transport.
  const loader: CleatLoader = { root: dir, read: (p) => readFileSync(p, 'utf8') };
  let documents = 0;
  const cleatMs = medianOf(runs, () =>
    timeMs(() => {
      const r = exportProgram({ path: file, text }, loader, {}, { format: 'json' });
      if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
      documents = r.documents.length;
    }),
  );
  const jsonnetMs = medianOf(runs, () =>
    timeMs(() => {
      evaluateToString(parseModule(new SourceFile(kubeLib, readFileSync(kubeLib, 'utf8'))), {
        importer: fsImporter(),
      });
    }),
  );
  const debian = medianOf(Math.min(runs, 3), () => runChild('jsonnet', [kubeLib]).ms);

  // Through the CLI: one-shot processes, then the daemon cold and warm.
  const oneShot = medianOf(Math.min(runs, 3), () => kubecfg(['--no-daemon', 'cleat', 'export', file]).ms);
  kubecfg(['daemon', 'start']);
  const cold = kubecfg(['cleat', 'export', file]).ms;
  const warm = medianOf(runs, () => kubecfg(['cleat', 'export', file]).ms);

  console.log(`generated program: ${text.split('\n').length} lines, ${documents} documents\n`);
  printTable([
    ['figure', 'ours', 'reference', 'ratio'],
    ['cleat export in-process vs our Jsonnet (kube-lib)', fmtMs(cleatMs), fmtMs(jsonnetMs), ratio(cleatMs, jsonnetMs)],
    ['cleat export in-process vs Debian jsonnet (kube-lib)', fmtMs(cleatMs), fmtMs(debian), ratio(cleatMs, debian)],
    ['daemon cold export vs Debian jsonnet', fmtMs(cold), fmtMs(debian), ratio(cold, debian)],
    ['daemon warm export (cached) vs cold', fmtMs(warm), fmtMs(cold), ratio(warm, cold)],
    ['one-shot (--no-daemon) export vs Debian jsonnet', fmtMs(oneShot), fmtMs(debian), ratio(oneShot, debian)],
  ]);
} finally {
  spawnSync(process.execPath, [cli, 'daemon', 'stop'], { env });
  rmSync(tmp, { recursive: true, force: true });
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}x`;
}
