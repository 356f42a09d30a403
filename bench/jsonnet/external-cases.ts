/**
 * Extra bench cases that live outside the repository (e.g. a vendored
 * kube-prometheus tree, never committed), named by the BENCH_EXTERNAL
 * variable: `name=file[:jpath...]`, several separated by `;`. Each case keeps
 * its own library search paths, passed to every engine as `-J dir`.
 * Invariant: a malformed entry or a missing file is reported by name before
 * any case runs, so a typo never costs a long bench run.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export interface BenchCase {
  name: string;
  file: string;
  jpath: string[];
  /** True for cases from BENCH_EXTERNAL: reported against go-jsonnet, kept out of the suite's geometric mean. */
  external: boolean;
}

export function parseExternalCases(spec: string | undefined): BenchCase[] {
  if (!spec?.trim()) return [];
  const cases: BenchCase[] = [];
  for (const entry of spec.split(';').map((e) => e.trim())) {
    if (!entry) continue;
    const eq = entry.indexOf('=');
    if (eq <= 0) throw new Error(`BENCH_EXTERNAL entry "${entry}": expected name=file[:jpath...]`);
    const name = entry.slice(0, eq);
    const [file, ...jpath] = entry.slice(eq + 1).split(':');
    if (!file) throw new Error(`BENCH_EXTERNAL entry "${entry}": no file after "${name}="`);
    const abs = resolve(file);
    if (!existsSync(abs) || !statSync(abs).isFile())
      throw new Error(`BENCH_EXTERNAL case "${name}": ${abs} is not a file`);
    for (const dir of jpath)
      if (!existsSync(resolve(dir)) || !statSync(resolve(dir)).isDirectory())
        throw new Error(`BENCH_EXTERNAL case "${name}": library path ${resolve(dir)} is not a directory`);
    if (cases.some((c) => c.name === name)) throw new Error(`BENCH_EXTERNAL: case "${name}" is named twice`);
    cases.push({ name, file: abs, jpath: jpath.map((d) => resolve(d)), external: true });
  }
  return cases;
}

/** `-J dir` arguments in the order given, as jsonnet, go-jsonnet, jrsonnet and our one-shot accept them. */
export function jpathArgs(jpath: string[]): string[] {
  return jpath.flatMap((d) => ['-J', d]);
}
