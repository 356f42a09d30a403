/**
 * Parse throughput leg of `npm run bench:jsonnet`: our parser over the whole
 * bench corpus (the case files, the generated import graph and a generated
 * several-MiB k8s-style library), in-process, against Debian's
 * `jsonnetfmt -i` rewriting copies of the same files in one process (a proxy
 * for the C++ parser, which has no parse-only mode; `--test` would stop at the
 * first file it would change). Medians of `runs` interleaved rounds, after
 * one warm-up run.
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

export function measureParse(files: string[], runs: number, jsonnetfmt: string | undefined): ParseFigures {
  const sources = files.map((f) => [f, readFileSync(f, 'utf8')] as const);
  const module = () => sources.forEach(([name, text]) => parseModule(new SourceFile(name, text)));
  const parser = () => sources.forEach(([name, text]) => parseAst(new SourceFile(name, text)));
  module(); // warm-up: the first run pays for JIT compilation
  parser();
  const tmp = mkdtempSync(join(tmpdir(), 'kubecfg-parse-'));
  const ours: number[] = [];
  const parserOnly: number[] = [];
  const peer: number[] = [];
  try {
    const copies = files.map((f, i) => join(tmp, `${i}-${basename(f)}`));
    // Rounds interleave the three legs so that a change in the machine's load
    // (it is shared) weighs on each of them alike.
    for (let i = 0; i < runs; i++) {
      ours.push(timeMs(module));
      parserOnly.push(timeMs(parser));
      if (!jsonnetfmt) continue;
      files.forEach((f, k) => copyFileSync(f, copies[k]!));
      const r = runChild(jsonnetfmt, ['-i', '--', ...copies]);
      if (r.status !== 0) throw new Error(`jsonnetfmt failed: ${r.stderr}`);
      peer.push(r.ms);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const fmtMs = peer.length > 0 ? median(peer) : undefined;
  const bytes = sources.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  return { files: files.length, bytes, oursMs: median(ours), parseOnlyMs: median(parserOnly), fmtMs };
}
