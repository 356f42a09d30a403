/**
 * Runs lang/kcl against KCL's own grammar tests on a local checkout (never committed here):
 *   node --import tsx test/kcl/conformance.ts /path/to/kcl/tests/grammar [FILTER] [-v]
 * A case is a directory with main.k and stdout.golden (or stderr.golden: we only check that
 * it fails). Cases with settings.yaml are run with their kcl_options files. Prints the pass
 * rate per top-level folder and, with -v, the first lines of each difference.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { KclError, runKcl, type KclHost } from '../../lang/kcl/index.js';

const [root, filter] = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const verbose = process.argv.includes('-v');
if (!root) {
  console.error('usage: conformance.ts GRAMMAR_DIR [FILTER] [-v]');
  process.exit(2);
}

const host: KclHost = {
  readFile: (p) => {
    try {
      return statSync(p).isFile() ? readFileSync(p, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
  listDir: (p) => {
    try {
      return readdirSync(p).map((name) => ({ name, dir: statSync(join(p, name)).isDirectory() }));
    } catch {
      return undefined;
    }
  },
};

function cases(dir: string, out: string[] = []): string[] {
  const names = readdirSync(dir);
  if (names.includes('main.k') && (names.includes('stdout.golden') || names.includes('stderr.golden'))) out.push(dir);
  for (const n of names) if (statSync(join(dir, n)).isDirectory()) cases(join(dir, n), out);
  return out;
}

const tally = new Map<string, [number, number]>();
let stderrExact = 0;
let stderrTotal = 0;
for (const dir of cases(root)) {
  const rel = relative(root, dir);
  if (filter && !rel.includes(filter)) continue;
  const group = rel.split('/')[0]!;
  const t = tally.get(group) ?? [0, 0];
  tally.set(group, t);
  t[1]++;
  let files = [join(dir, 'main.k')];
  const settings = join(dir, 'settings.yaml');
  const defines: string[] = [];
  let sortKeys = false;
  let ignoreNone = false;
  if (existsSync(settings)) {
    const text = readFileSync(settings, 'utf8');
    const m = /kcl_options:\s*(.*)/.exec(text);
    if (m) {
      const opts = m[1]!.split(/\s+/);
      const ks = opts.filter((o) => o.endsWith('.k')).map((f) => join(dir, f));
      if (ks.length) files = [join(dir, 'main.k'), ...ks.filter((f) => f !== join(dir, 'main.k'))];
      for (let i = 0; i < opts.length; i++) if (opts[i] === '-D' && opts[i + 1]) defines.push(opts[i + 1]!);
      sortKeys = opts.includes('--sort_keys') || opts.includes('-k');
      ignoreNone = opts.includes('-d') || opts.includes('--disable_none');
    }
  }
  const wantOut = existsSync(join(dir, 'stdout.golden')) ? readFileSync(join(dir, 'stdout.golden'), 'utf8') : undefined;
  let got: string;
  let failed = false;
  try {
    got = runKcl(host, { paths: files, defines, sortKeys, ignoreNone });
  } catch (err) {
    failed = true;
    got = err instanceof KclError ? err.render() : `CRASH ${(err as Error).stack}`;
  }
  const ok =
    wantOut === undefined ? failed && !got.startsWith('CRASH') : !failed && got.trimEnd() === wantOut.trimEnd();
  const errGolden = join(dir, 'stderr.golden');
  if (wantOut === undefined && existsSync(errGolden)) {
    stderrTotal++;
    const want = readFileSync(errGolden, 'utf8').replaceAll('${CWD}', dir).trimEnd();
    if (got.trimEnd() === want) stderrExact++;
    else if (verbose && ok) console.log(`--- ${rel} (stderr)\n${got.trimEnd()}\n+++ want\n${want}`);
  }
  if (ok) t[0]++;
  else if (verbose) {
    console.log(`--- ${rel}`);
    console.log(got.split('\n').slice(0, 8).join('\n'));
    if (wantOut !== undefined) console.log('+++ want\n' + wantOut.split('\n').slice(0, 8).join('\n'));
  }
}
let pass = 0;
let total = 0;
for (const [g, [p, n]] of [...tally].sort()) {
  console.log(`${g.padEnd(28)} ${p}/${n}`);
  pass += p;
  total += n;
}
console.log(`${'total'.padEnd(28)} ${pass}/${total}`);
console.log(`${'stderr byte-identical'.padEnd(28)} ${stderrExact}/${stderrTotal}`);
