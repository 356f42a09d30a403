// Build: type-check and emit every folder with tsc (tests run from dist/),
// then bundle the CLI with esbuild so `kubecfg` loads one small file at start.
// tsc is incremental (dist/.tsbuildinfo): an unchanged tree rebuilds in seconds
// instead of a minute. `--clean` (npm run build:clean) starts from an empty dist/.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

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
const cliOptions = {
  entryPoints: ['client-cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // "use strict" first: esbuild's own directive would come after this line and be a no-op.
  banner: { js: '"use strict";\nvar __cli_url = require("node:url").pathToFileURL(__filename).href;' },
  define: { __KUBECFG_BUILD_ID__: JSON.stringify(buildId), 'import.meta.url': '__cli_url' },
  // The one other import.meta use (import.meta.resolve in client-cli/remote) runs from sources only.
  logOverride: { 'empty-import-meta': 'silent' },
  logLevel: 'warning',
};
// The startup snapshot holds the bundles of the build that made it: gone until this build makes
// its own, so a build that stops half way never leaves a blob of other bundles beside new ones.
rmSync('dist/bin/kubecfg.blob', { force: true });
if (existsSync('client-cli/main.ts')) {
  writeFileSync('dist/bin/package.json', JSON.stringify({ type: 'commonjs' }) + '\n');
  await build({
    ...cliOptions,
    outfile: 'dist/bin/kubecfg.js',
    banner: { js: `#!/usr/bin/env node\n${cliOptions.banner.js}` },
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
// chokidar (and readdirp, which reads fs/promises at its top level) likewise: only `--watch` uses it.
const LAZY_PACKAGES = {
  undici: ['Agent', 'Dispatcher', 'EnvHttpProxyAgent', 'ProxyAgent', 'request', 'buildConnector'],
  chokidar: ['watch'],
};
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(LAZY_PACKAGES).join('|')})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-packages' ? undefined : { path: args.path, namespace: 'lazy-packages' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-packages' }, (args) => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: [
        'let real;',
        `const load = () => (real ??= require('${args.path}'));`,
        'const lazyClass = (name) =>',
        '  new Proxy(function () {}, {',
        // newTarget: a subclass (net/proxy.ts defines one at first use) keeps its own prototype.
        '    construct: (_t, args, newTarget) => Reflect.construct(load()[name], args, newTarget),',
        '    get: (_t, key) => load()[name][key],',
        '  });',
        ...LAZY_PACKAGES[args.path].map((n) =>
          /^[A-Z]/.test(n)
            ? `export const ${n} = lazyClass('${n}');`
            : `export const ${n} = (...args) => load().${n}(...args);`,
        ),
      ].join('\n'),
    }));
  },
};

// Node built-ins that only some commands use (TLS and HTTP clients, gzip, child processes, DNS,
// worker threads, fs/promises) were loaded by the bundle's top level, because esbuild's CommonJS
// output runs every statically imported module's requires at start: ~10 ms of CPU on a one-shot
// that needs none of them. Each becomes a proxy that requires the real module on first use.
// esbuild's __toESM copies an imported CommonJS module's property names up front, so the proxy
// answers those names (taken from this Node at build time) and reads each value only when used.
const LAZY_BUILTINS = [
  'child_process',
  'dgram',
  'dns',
  'fs/promises',
  'http',
  'http2',
  'https',
  'perf_hooks',
  'tls',
  'worker_threads',
  'zlib',
];
const builtinRequire = createRequire(import.meta.url);
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.map((n) => n.replace('/', '\\/')).join('|')})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtins'
        ? undefined
        : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtins' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtins' }, (args) => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: [
        'let real;',
        `const load = () => (real ??= require('node:${args.path}'));`,
        `const names = ${JSON.stringify(Object.getOwnPropertyNames(builtinRequire(`node:${args.path}`)))};`,
        'module.exports = new Proxy({}, {',
        // __toESM asks for __esModule (a built-in has none) before copying the names.
        "  get: (_t, k) => (k === '__esModule' && real === undefined ? undefined : load()[k]),",
        '  has: (_t, k) => k in load(),',
        '  ownKeys: () => (real === undefined ? names.slice() : Reflect.ownKeys(real)),',
        // An accessor: the value is read (and the module loaded) only when someone reads it.
        '  getOwnPropertyDescriptor: (_t, k) =>',
        '    names.includes(k) || (real !== undefined && k in real)',
        '      ? { get: () => load()[k], enumerable: true, configurable: true }',
        '      : undefined,',
        '});',
      ].join('\n'),
    }));
  },
};

if (existsSync('server/oneshot-run.ts')) {
  await build({
    plugins: [lazyPackages, lazyBuiltins],
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
  // esbuild escapes strings and identifiers but not regular expression literals or comments (a
  // `µs` in lang/go/time.ts, a licence notice): ten non-ASCII bytes made the whole 3.4 MB source a
  // two-byte string, decoded as UTF-8 (11-14 ms of CPU) instead of copied (1 ms, engine-bundle.ts).
  // \uXXXX per UTF-16 unit means the same character in a regular expression (with or without /u:
  // a pair of escaped surrogates is one code point there) and is inert in a comment.
  const engineText = readFileSync('dist/bin/engine.cjs', 'utf8');
  if (/[^\0-\x7f]/.test(engineText)) {
    // After a backslash (an identity escape) the rewrite would change the meaning: refuse it.
    if (/\\[^\0-\x7f]/.test(engineText))
      throw new Error('dist/bin/engine.cjs: a backslash before a non-ASCII character');
    const ascii = engineText.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    writeFileSync('dist/bin/engine.cjs', ascii);
  }
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

// The startup snapshot (docs/performance.md, "Startup snapshot"): a heap holding the CLI and the
// engine, loaded and warmed up, which `node --snapshot-blob dist/bin/kubecfg.blob` deserialises
// instead of reading and compiling 3.5 MB of JavaScript. The wrapper dist/bin/kubecfg (the command
// users run) starts Node from it for the commands that render in their own process.
if (existsSync('client-cli/main.ts') && existsSync('server/oneshot-run.ts')) {
  const cliSnapshot = await build({
    ...cliOptions,
    define: { ...cliOptions.define, __KUBECFG_SNAPSHOT_BUILD__: 'true' },
    write: false,
    outfile: 'dist/bin/kubecfg.js',
  });
  // Paths are the real ones: the snapshot's main function compares the CLI it was started with.
  const here = (f) => realpathSync(resolve(f));
  // The young and old generations of a one-shot render (docs/performance.md, "Cold one-shot, third
  // round"): most of what a render allocates lives until it ends (the AST, compiled code, values),
  // so a small semi-space promotes it after less copying and touches less memory, and a larger
  // initial heap spares the mark-compacts of a heap growing from a few MB. V8 stamps its flags
  // into the blob: the wrapper passes the same ones (kubecfg.sh's v8_flags), else Node refuses it.
  const snapshotV8Flags = ['--initial-heap-size=192', '--max-semi-space-size=2'];
  const warm = mkdtempSync(join(tmpdir(), 'kubecfg-snapshot-'));
  const entry = 'dist/bin/kubecfg.snapshot.cjs';
  const blob = 'dist/bin/kubecfg.blob';
  try {
    // A program in the style of kube-prometheus (std, a library, a .json import, comprehensions,
    // more than one chunk of output): what its render compiles is in the heap, not compiled again
    // by every one-shot (docs/performance.md, "Cold one-shot, third round").
    for (const f of readdirSync('scripts/snapshot-warm')) copyFileSync(join('scripts/snapshot-warm', f), join(warm, f));
    const paths = {
      cli: here('dist/bin/kubecfg.js'),
      engine: here('dist/bin/engine.cjs'),
      warm: join(warm, 'warm.jsonnet'),
    };
    // Each bundle starts on its wrapper's line, so positions in stack traces are the bundle's own, one line down.
    writeFileSync(
      entry,
      [
        `const SNAPSHOT = ${JSON.stringify(paths)};`,
        `function engineBody(exports, require, module, __filename, __dirname) {${readFileSync('dist/bin/engine.cjs', 'latin1')}\n}`,
        `function cliBody(exports, require, module, __filename, __dirname) {${cliSnapshot.outputFiles[0].text}\n}`,
        readFileSync('scripts/snapshot-main.cjs', 'utf8'),
      ].join('\n'),
    );
    // NODE_OPTIONS' V8 flags would be stamped into the blob, and every run without them refused.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    try {
      execFileSync(
        process.execPath,
        ['--no-warnings', ...snapshotV8Flags, '--snapshot-blob', `${blob}.tmp`, '--build-snapshot', entry],
        {
          stdio: ['ignore', 'inherit', 'pipe'],
          env,
        },
      );
    } catch (err) {
      const why = String(err.stderr ?? err.message)
        .split('\n')
        .filter((l) => !/^\s*(\d+: 0x|#|$)/.test(l))
        .slice(0, 12)
        .join('\n');
      throw new Error(
        `the startup snapshot could not be built (a module's top level holding a native handle, such as a ` +
          `BlockList, a socket or a Worker, cannot be snapshotted: make it lazy):\n${why}`,
      );
    }
    renameSync(`${blob}.tmp`, blob);
  } finally {
    rmSync(warm, { recursive: true, force: true });
    rmSync(`${blob}.tmp`, { force: true });
  }
  // Single-quoted in the script: a quote in a path is closed, escaped and reopened.
  const shQuoted = (path) => path.replaceAll("'", "'\\''");
  const wrapper = readFileSync('scripts/kubecfg.sh', 'utf8')
    .replace('@BUILT_NODE@', () => shQuoted(realpathSync(process.execPath)))
    .replace('@BIN_DIR@', () => shQuoted(realpathSync('dist/bin')))
    .replace('@V8_FLAGS@', () => snapshotV8Flags.join(' '));
  writeFileSync('dist/bin/kubecfg', wrapper);
  chmodSync('dist/bin/kubecfg', 0o755);
}
