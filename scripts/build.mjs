// Build: type-check and emit every folder with tsc (tests run from dist/),
// then bundle the CLI with esbuild so `kubecfg` loads one small file at start.
// tsc is incremental (dist/.tsbuildinfo): an unchanged tree rebuilds in seconds
// instead of a minute. `--clean` (npm run build:clean) starts from an empty dist/.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const TSBUILDINFO = 'dist/.tsbuildinfo';
// Without the bundle the last build did not finish: its tsbuildinfo may claim outputs never written.
if (process.argv.includes('--clean') || !existsSync('dist/bin/kubecfg.js')) {
  rmSync('dist', { recursive: true, force: true });
}
execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', '.', '--incremental', '--tsBuildInfoFile', TSBUILDINFO],
  { stdio: 'inherit' },
);

// tsc never deletes what a removed or renamed source emitted; a stale test or
// module left in dist/ would run and would enter the build id, so drop it.
function prune(dir) {
  for (const ent of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${ent.name}`;
    if (ent.isDirectory()) {
      prune(p);
      if (readdirSync(p).length === 0) rmSync(p, { recursive: true });
      continue;
    }
    const m = /^dist\/(.*)\.js(\.map)?$/.exec(p);
    if (m && !existsSync(`${m[1]}.ts`)) rmSync(p);
  }
}
for (const d of readdirSync('dist', { withFileTypes: true })) {
  if (d.isDirectory() && d.name !== 'bin') prune(`dist/${d.name}`);
}

// The build id lets the CLI and the daemon detect version skew (hazard 27): a
// digest of the emitted runtime code, so any rebuild that changes code changes it.
const hash = createHash('sha256');
for (const f of ['package.json', 'package-lock.json']) if (existsSync(f)) hash.update(readFileSync(f));
function walk(dir) {
  if (!existsSync(dir)) return;
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const ent of entries) {
    const p = `${dir}/${ent.name}`;
    if (ent.isDirectory()) walk(p);
    else if (p.endsWith('.js') && !p.endsWith('.test.js')) hash.update(p).update(readFileSync(p));
  }
}
for (const d of ['protocol', 'client-cli', 'server', 'render', 'lang', 'cache', 'kube', 'oci', 'net'])
  walk(`dist/${d}`);
const buildId = hash.digest('hex').slice(0, 16);
mkdirSync('dist/bin', { recursive: true });
writeFileSync('dist/build-id.json', JSON.stringify({ buildId }) + '\n');

if (existsSync('client-cli/main.ts')) {
  await build({
    entryPoints: ['client-cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: 'dist/bin/kubecfg.js',
    banner: { js: '#!/usr/bin/env node' },
    define: { __KUBECFG_BUILD_ID__: JSON.stringify(buildId) },
    logLevel: 'warning',
  });
  chmodSync('dist/bin/kubecfg.js', 0o755);
}
