/**
 * `npm run bench:jsonnet`: every case through our engine (in-process and as a
 * child process) and through Debian's C++ `jsonnet` (and go-jsonnet or
 * jrsonnet when on PATH) in the same run; checks the outputs are identical
 * and prints case, medians, ratio and peak RSS. No assertions on time.
 *
 * Case sizes are chosen so the C++ engine takes about 1-5 s on this machine:
 * its std functions are written in Jsonnet, so the sizes the issue names
 * (e.g. set operations on 1e5 items) take it many minutes.
 *
 * External cases (never committed, e.g. issue 4's real-world configuration):
 *   BENCH_EXTERNAL='kube-prometheus=$HOME/src/kube-prometheus/main.jsonnet:$HOME/src/kube-prometheus/vendor'
 * is `name=file[:jpath...]`, several separated by `;`; each runs like the
 * other cases with its library paths passed as `-J dir` to every engine, is
 * left out of the geometric mean, and gets a line comparing it with
 * go-jsonnet (time ours/go-jsonnet, target <= 0.40x; peak RSS of our child
 * against go-jsonnet's). The go-jsonnet binary is `BENCH_GO_JSONNET` if set,
 * else `go-jsonnet` on PATH. Without BENCH_EXTERNAL the run is unchanged.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateToString, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { fsImporter } from '../lib/fs-importer.js';
import { fmtKb, fmtMs, median, printTable, runChild, timeMs } from '../lib/measure.js';
import { writeBigLibrary } from './big-library.js';
import { writeImportGraph } from './import-graph.js';
import { corpusFiles, describeParseCpu, measureParse } from './parse-throughput.js';
import { type BenchCase, jpathArgs, parseExternalCases } from './external-cases.js';
import { spawnSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, here.includes('/dist/') ? '../../..' : '../..');
const caseDir = join(repo, 'bench/jsonnet');
const runs = Number(process.env.BENCH_RUNS ?? 3);

function onPath(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function ours(file: string, jpath: string[]): { out: string; ms: number } {
  let out = '';
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      timeMs(() => {
        const module = parseModule(new SourceFile(file, readFileSync(file, 'utf8')));
        out = evaluateToString(module, { importer: fsImporter(jpath) }) as string;
      }),
    );
  }
  return { out, ms: median(times) };
}

function peer(cmd: string, file: string, jpath: string[]): { out: string; ms: number; rss?: number; ok: boolean } {
  const times: number[] = [];
  let out = '';
  let rss: number | undefined;
  let ok = true;
  for (let i = 0; i < runs; i++) {
    const r = runChild(cmd, [...jpathArgs(jpath), file]);
    times.push(r.ms);
    out = r.stdout;
    rss = Math.max(rss ?? 0, r.peakRssKb ?? 0) || undefined;
    ok = r.status === 0;
  }
  return { out, ms: median(times), rss, ok };
}

// Parsed before anything runs so a bad entry fails at once.
const external = parseExternalCases(process.env.BENCH_EXTERNAL);
const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-bench-'));
try {
  const files = readdirSync(caseDir)
    .filter((f) => f.endsWith('.jsonnet'))
    .sort()
    .map((f) => join(caseDir, f));
  const cases: BenchCase[] = files.map((file) => ({
    name: basename(file, '.jsonnet'),
    file,
    jpath: [],
    external: false,
  }));
  const importGraph = writeImportGraph(join(tmp, 'import-graph'));
  cases.push({ name: 'import-graph-300', file: importGraph, jpath: [], external: false }, ...external);
  const peers = [
    ['jsonnet', onPath('jsonnet')],
    ['go-jsonnet', process.env.BENCH_GO_JSONNET || onPath('go-jsonnet')],
    ['jrsonnet', onPath('jrsonnet')],
  ].filter((p): p is [string, string] => p[1] !== undefined);
  // Under tsx (npm run bench from source) the child needs the same loader.
  const oneShot = join(here, `one-shot${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`);
  const header = [
    'case',
    'ours',
    'ours(child)',
    ...peers.flatMap(([n]) => [n, `${n}/ours`]),
    'our RSS',
    ...peers.map(([n]) => `${n} RSS`),
    'same output',
  ];
  const rows: string[][] = [header];
  const ratios: number[] = [];
  const externalLines: string[] = [];
  for (const { name, file, jpath, external: isExternal } of cases) {
    const o = ours(file, jpath);
    const child = runChild(process.execPath, [...process.execArgv, oneShot, ...jpathArgs(jpath), file]);
    if (child.status !== 0 || child.stdout !== o.out)
      throw new Error(`${name}: the child run failed or differs: ${child.stderr}`);
    const row = [name, fmtMs(o.ms), fmtMs(child.ms)];
    const rssCells: string[] = [];
    const differing: string[] = [];
    for (const [peerName, cmd] of peers) {
      const p = peer(cmd, file, jpath);
      row.push(fmtMs(p.ms), p.ok ? (p.ms / o.ms).toFixed(2) + 'x' : 'failed');
      if (cmd === peers[0]![1] && p.ok && !isExternal) ratios.push(p.ms / o.ms);
      rssCells.push(fmtKb(p.rss));
      if (!p.ok || p.out !== o.out) differing.push(peerName);
      if (isExternal && peerName === 'go-jsonnet' && p.ok)
        externalLines.push(
          `${name}: ours/go-jsonnet time ${(o.ms / p.ms).toFixed(2)}x in-process, ${(child.ms / p.ms).toFixed(2)}x as a child ` +
            `(target <= 0.40x); peak RSS ours(child) ${fmtKb(child.peakRssKb)} vs go-jsonnet ${fmtKb(p.rss)} (target: no more)` +
            `; output ${(o.out.length / 1048576).toFixed(1)} MiB${p.out === o.out ? ', identical' : ', DIFFERENT'}`,
        );
    }
    const same = differing.length === 0 ? 'yes' : `NO (${differing.join(', ')})`;
    rows.push([...row, fmtKb(child.peakRssKb), ...rssCells, same]);
  }
  printTable(rows);
  for (const line of externalLines) console.log(line);
  if (ratios.length) {
    const geo = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
    console.log(`\ngeometric mean speed-up over ${peers[0]![0]}: ${geo.toFixed(2)}x (runs per case: ${runs})`);
  }
  const library = writeBigLibrary(join(tmp, 'library'));
  const corpus = [...corpusFiles([caseDir, dirname(importGraph)]), library];
  const parse = measureParse(corpus, runs, onPath('jsonnetfmt'));
  const vsFmt = (ms: number) => (parse.fmtMs === undefined ? '' : ` (${(ms / parse.fmtMs).toFixed(2)}x jsonnetfmt)`);
  console.log(
    `parse: ${parse.files} files, ${(parse.bytes / 1024).toFixed(0)} KiB (a ${(statSync(library).size / 1048576).toFixed(1)} MiB generated library included): ` +
      `jsonnetfmt -i ${fmtMs(parse.fmtMs)}; ours parseModule ${fmtMs(parse.oursMs)}${vsFmt(parse.oursMs)}, ` +
      `parser alone ${fmtMs(parse.parseOnlyMs)}${vsFmt(parse.parseOnlyMs)}; target <= 0.20x`,
  );
  const cpu = describeParseCpu(parse);
  if (cpu) console.log(`parse ${cpu}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
