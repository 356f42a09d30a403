// Build: type-check and emit every folder with tsc (tests run from dist/),
// then bundle the CLI with esbuild so `kubecfg` loads one small file at start.
// tsc is incremental (dist/.tsbuildinfo): an unchanged tree rebuilds in seconds
// instead of a minute. `--clean` (npm run build:clean) starts from an empty dist/.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

// The CLI bundle is CommonJS (dist/bin/package.json says so, keeping the `kubecfg.js` name): Node
// then starts it without its ES module loader, and esbuild turns each dynamic import() of a bundled
// module into a lazy initialiser, so builtins required only by code the command never reaches
// (node:child_process for the launcher, node:https for --remote) are never loaded.
if (existsSync('client-cli/main.ts')) {
  writeFileSync('dist/bin/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
  await build({
    entryPoints: ['client-cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: 'dist/bin/kubecfg.js',
    banner: {
      // "use strict" first: esbuild's own directive would come after this line and be a no-op.
      js: '#!/usr/bin/env node\n"use strict";\nvar __cli_url = require("node:url").pathToFileURL(__filename).href;',
    },
    define: { __KUBECFG_BUILD_ID__: JSON.stringify(buildId), 'import.meta.url': '__cli_url' },
    // The one other import.meta use (import.meta.resolve in client-cli/remote) runs from sources only.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'warning',
  });
  chmodSync('dist/bin/kubecfg.js', 0o755);
}

// The engine bundle: what `--no-daemon` and a first call without a daemon run inside the CLI's
// own process (client-cli/engine-bundle.ts). CommonJS so it can be compiled as one vm.Script
// with V8's code cache; import.meta.url points at the bundle (dist/bin/), whose neighbours
// (../build-id.json) are where the unbundled modules look too.
// undici (1 MB, most of the bundle's start-up work) is needed only when a render fetches over
// HTTP or talks to a cluster: its importers get a facade that loads it on first use. Only the
// values our code imports are forwarded (esbuild fails the build when an import names another).
const UNDICI_VALUES = ['Agent', 'Dispatcher', 'EnvHttpProxyAgent', 'ProxyAgent', 'request', 'buildConnector'];
const lazyUndici = {
  name: 'lazy-undici',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.namespace === 'lazy-undici' ? undefined : { path: 'undici', namespace: 'lazy-undici' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-undici' }, () => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: [
        'let real;',
        "const load = () => (real ??= require('undici'));",
        'const lazyClass = (name) =>',
        '  new Proxy(function () {}, {',
        // newTarget: a subclass (net/proxy.ts defines one at first use) keeps its own prototype.
        '    construct: (_t, args, newTarget) => Reflect.construct(load()[name], args, newTarget),',
        '    get: (_t, key) => load()[name][key],',
        '  });',
        ...UNDICI_VALUES.map((n) =>
          /^[A-Z]/.test(n)
            ? `export const ${n} = lazyClass('${n}');`
            : `export const ${n} = (...args) => load().${n}(...args);`,
        ),
      ].join('\n'),
    }));
  },
};

if (existsSync('server/oneshot-run.ts')) {
  await build({
    plugins: [lazyUndici],
    // Whitespace and syntax only: identifiers keep their names (error texts and stack traces use them).
    minifyWhitespace: true,
    minifySyntax: true,
    entryPoints: ['server/oneshot-run.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: 'dist/bin/engine.cjs',
    banner: { js: 'var __engine_url = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__engine_url' },
    logLevel: 'warning',
  });
  // A code cache from the previous bundle would be rejected; one warm-up run writes the new one,
  // including the functions a render compiles (parser, evaluator, YAML output).
  rmSync('dist/bin/engine.cjs.cache', { force: true });
  const warm = mkdtempSync(join(tmpdir(), 'kubecfg-warm-'));
  try {
    writeFileSync(
      join(warm, 'warm.jsonnet'),
      "local l = { name: 'x', n: [i * 2 for i in std.range(1, 3)] };\n" +
        "{ cm: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: l.name }, data: { v: std.toString(l.n) } } }\n",
    );
    execFileSync(process.execPath, ['dist/bin/kubecfg.js', '--no-daemon', 'show', join(warm, 'warm.jsonnet')], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, KUBECFG_DAEMON_TEST_HOOKS: '' },
    });
  } finally {
    rmSync(warm, { recursive: true, force: true });
  }
}
