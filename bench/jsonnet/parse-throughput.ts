/**
 * Parse throughput leg of `npm run bench:jsonnet`: our parser over the whole
 * bench corpus (the case files plus the generated import graph), in-process,
 * against Debian's `jsonnetfmt -i` rewriting copies of the same files in one
 * process (a proxy for the C++ parser, which has no parse-only mode; `--test`
 * would stop at the first file it would change). Median of `runs`.
 * The target (issue 4) is our time at most a fifth of jsonnetfmt's.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { median, runChild, timeMs } from '../lib/measure.js';

export interface ParseFigures {
  files: number;
  bytes: number;
  oursMs: number;
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

export function measureParse(files: string[], runs: number, jsonnetfmt: string | undefined): ParseFigures {
  const sources = files.map((f) => [f, readFileSync(f, 'utf8')] as const);
  const ours: number[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(timeMs(() => sources.forEach(([name, text]) => parseModule(new SourceFile(name, text)))));
  }
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
  return { files: files.length, bytes, oursMs: median(ours), fmtMs };
}
