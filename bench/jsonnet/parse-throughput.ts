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
 * Wall and CPU time are both kept: on the shared machine wall time moves
 * with the load, while CPU time (ours: process.cpuUsage(), garbage
 * collector threads included; jsonnetfmt's: its own rusage) compares the
 * work done.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseAst, parseModule, SourceFile } from '../../lang/jsonnet/index.js';
import { childCpu } from '../fmt/child-cpu.js';
import { median, runChild } from '../lib/measure.js';

export interface ParseFigures {
  files: number;
  bytes: number;
  /** parseModule: parse and static analysis. */
  oursMs: number;
  /** The parser alone. */
  parseOnlyMs: number;
  fmtMs: number | undefined;
  /** CPU time of the same runs (medians). */
  oursCpuMs: number;
  parseOnlyCpuMs: number;
  fmtCpuMs: number | undefined;
}

/** Wall and CPU milliseconds of one in-process run. */
function timed(fn: () => void): { ms: number; cpuMs: number } {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 };
}

/** Runs jsonnetfmt: wall time, and its CPU time when bash can report it. */
function runFmt(jsonnetfmt: string, args: string[]): { ms: number; cpuMs: number | undefined } {
  const t0 = process.hrtime.bigint();
  const r = childCpu(jsonnetfmt, args);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r === undefined) {
    const plain = runChild(jsonnetfmt, args);
    if (plain.status !== 0) throw new Error(`jsonnetfmt failed: ${plain.stderr}`);
    return { ms: plain.ms, cpuMs: undefined };
  }
  if (r.status !== 0) throw new Error(`jsonnetfmt failed: ${r.stderr}`);
  return { ms, cpuMs: r.cpuMs };
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
  const oursCpu: number[] = [];
  const parserOnlyCpu: number[] = [];
  const peerCpu: number[] = [];
  try {
    const copies = files.map((f, i) => join(tmp, `${i}-${basename(f)}`));
    // Rounds interleave the three legs so that a change in the machine's load
    // (it is shared) weighs on each of them alike.
    for (let i = 0; i < runs; i++) {
      const m = timed(module);
      ours.push(m.ms);
      oursCpu.push(m.cpuMs);
      const p = timed(parser);
      parserOnly.push(p.ms);
      parserOnlyCpu.push(p.cpuMs);
      if (!jsonnetfmt) continue;
      files.forEach((f, k) => copyFileSync(f, copies[k]!));
      const r = runFmt(jsonnetfmt, ['-i', '--', ...copies]);
      peer.push(r.ms);
      if (r.cpuMs !== undefined) peerCpu.push(r.cpuMs);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const fmtMs = peer.length > 0 ? median(peer) : undefined;
  const bytes = sources.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  return {
    files: files.length,
    bytes,
    oursMs: median(ours),
    parseOnlyMs: median(parserOnly),
    fmtMs,
    oursCpuMs: median(oursCpu),
    parseOnlyCpuMs: median(parserOnlyCpu),
    fmtCpuMs: peerCpu.length > 0 && peerCpu.length === peer.length ? median(peerCpu) : undefined,
  };
}

/** The CPU-time comparison, for the bench's parse line (empty without jsonnetfmt's CPU time). */
export function describeParseCpu(f: ParseFigures): string {
  if (f.fmtCpuMs === undefined) return '';
  const r = (ms: number) => (ms / f.fmtCpuMs!).toFixed(2);
  return (
    `CPU: jsonnetfmt -i ${f.fmtCpuMs.toFixed(0)}ms; ours parseModule ${f.oursCpuMs.toFixed(0)}ms ` +
    `(${r(f.oursCpuMs)}x), parser alone ${f.parseOnlyCpuMs.toFixed(0)}ms (${r(f.parseOnlyCpuMs)}x)`
  );
}
