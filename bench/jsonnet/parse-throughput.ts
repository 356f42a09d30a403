/**
 * Parse throughput leg of `npm run bench:jsonnet`: our parser over the whole
 * bench corpus (the case files, the generated import graph and a generated
 * several-MiB k8s-style library), in-process, against Debian's
 * `jsonnetfmt -i` rewriting copies of the same files in one process (a proxy
 * for the C++ parser, which has no parse-only mode; `--test` would stop at the
 * first file it would change). Medians of `runs`, after one warm-up run.
 * Two figures for us: parseModule (parse + static analysis: what the engine
 * does before evaluating) and the parser alone. The target (issue 4) is
 * parseModule at most a fifth of jsonnetfmt's time.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseAst, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { median, runChild, timeMs } from '../lib/measure.js';

export interface ParseFigures {
  files: number;
  bytes: number;
  /** parseModule: parse and static analysis. */
  oursMs: number;
  /** The parser alone. */
  parseOnlyMs: number;
  fmtMs: number | undefined;
}

/** Every .jsonnet/.libsonnet file directly under the given folders. */
export function corpusFiles(dirs: string[]): string[] {
  const out: string[] = [];
  for (const d of dirs) {
    for (const f of readdirSync(d).sort()) if (/\.(jsonnet|libsonnet)$/.test(f)) out.push(join(d, f));
  }
  return out;
}

function medianOf(runs: number, fn: () => void): number {
  fn(); // warm-up: the first run pays for JIT compilation
  return median(Array.from({ length: runs }, () => timeMs(fn)));
}

export function measureParse(files: string[], runs: number, jsonnetfmt: string | undefined): ParseFigures {
  const sources = files.map((f) => [f, readFileSync(f, 'utf8')] as const);
  const oursMs = medianOf(runs, () => sources.forEach(([name, text]) => parseModule(new SourceFile(name, text))));
  const parseOnlyMs = medianOf(runs, () => sources.forEach(([name, text]) => parseAst(new SourceFile(name, text))));
  let fmtMs: number | undefined;
  if (jsonnetfmt) {
    const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-parse-'));
    try {
      const copies = files.map((f, i) => join(tmp, `${i}-${basename(f)}`));
      files.forEach((f, i) => copyFileSync(f, copies[i]!));
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const r = runChild(jsonnetfmt, ['-i', '--', ...copies]);
        if (r.status !== 0) throw new Error(`jsonnetfmt failed: ${r.stderr}`);
        times.push(r.ms);
      }
      fmtMs = median(times);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const bytes = sources.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  return { files: files.length, bytes, oursMs, parseOnlyMs, fmtMs };
}
