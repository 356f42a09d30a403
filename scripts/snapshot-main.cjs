// The startup snapshot's builder (docs/performance.md, "Startup snapshot"). scripts/build.mjs
// writes dist/bin/kubecfg.snapshot.cjs as: SNAPSHOT (paths), engineBody (dist/bin/engine.cjs) and
// cliBody (the CLI bundle built not to start itself), then this file; `node --build-snapshot` runs
// it and saves the heap it leaves as dist/bin/kubecfg.blob. A process started from that blob runs
// the function given to setDeserializeMainFunction below instead of loading any script.
//
// Node 20 builds a snapshot only from built-in modules and JavaScript objects: no native handles
// (a BlockList, an ICU converter, a socket) may be reachable from the heap, and a module's top level
// must not keep anything of the build's environment (process.env, the working directory), since
// every later process would see it. Both are checked here; the build fails and says which.
/* global SNAPSHOT, engineBody, cliBody */
/* eslint-disable @typescript-eslint/no-require-imports -- a snapshot's builder has require() of built-ins, nothing else */
'use strict';
const { startupSnapshot } = require('node:v8');
const { realpathSync } = require('node:fs');
const { dirname } = require('node:path');

if (!startupSnapshot.isBuildingSnapshot()) throw new Error('run by `node --build-snapshot` only');

// TextDecoder holds an ICU converter (a native object) from its constructor on, and several modules
// make one at their top level. While the bundles load and warm up they get this stand-in, which
// makes the real decoder on its first use (in the process that deserialised it).
const RealTextDecoder = globalThis.TextDecoder;
class SnapshotTextDecoder {
  #args;
  #real;
  constructor(...args) {
    this.#args = args;
  }
  #decoder() {
    return (this.#real ??= new RealTextDecoder(...this.#args));
  }
  decode(input, options) {
    return this.#decoder().decode(input, options);
  }
  get encoding() {
    return this.#decoder().encoding;
  }
  get fatal() {
    return this.#decoder().fatal;
  }
  get ignoreBOM() {
    return this.#decoder().ignoreBOM;
  }
}
globalThis.TextDecoder = SnapshotTextDecoder;

// What the bundles' top levels read of this build's environment.
const realEnv = process.env;
const realCwd = process.cwd;
const readAtLoad = new Set();
process.env = new Proxy(realEnv, {
  get: (t, k) => (typeof k === 'string' && readAtLoad.add(`process.env.${k}`), Reflect.get(t, k)),
  has: (t, k) => (typeof k === 'string' && readAtLoad.add(`process.env.${k}`), Reflect.has(t, k)),
  ownKeys: (t) => (readAtLoad.add('process.env (all keys)'), Reflect.ownKeys(t)),
});
process.cwd = () => (readAtLoad.add('process.cwd()'), realCwd.call(process));
const realArgv = process.argv;
Object.defineProperty(process, 'argv', {
  get: () => (readAtLoad.add('process.argv'), realArgv),
  configurable: true,
  enumerable: true,
});

function load(body, file) {
  const module = { exports: {} };
  body.call(module.exports, module.exports, require, module, file, dirname(file));
  return module.exports;
}
const engine = load(engineBody, SNAPSHOT.engine);
const cli = load(cliBody, SNAPSHOT.cli);
process.env = realEnv;
process.cwd = realCwd;
Object.defineProperty(process, 'argv', { value: realArgv, writable: true, configurable: true, enumerable: true });
if (readAtLoad.size > 0) {
  throw new Error(
    `a module's top level reads the environment, which a startup snapshot would freeze: ${[...readAtLoad].join(', ')}; ` +
      'read it where it is used instead',
  );
}
globalThis[Symbol.for('kubecfg.startupSnapshotEngine')] = { file: SNAPSHOT.engine, engine };

// One render of each output format, so the heap holds the bytecode of the functions a render runs
// (parser, evaluator, manifesters). Two inputs: a one-input command would switch this process to
// render-once mode (server/commands/engine.ts), which a later `show a b` must not inherit.
const tty = { stdoutIsTTY: false, stderrIsTTY: false, columns: null, color: 'never', noColor: false, forceColor: null };
const discard = { write: () => undefined };
const params = {
  requestId: 'snapshot',
  args: [SNAPSHOT.warm, SNAPSHOT.warm],
  flags: {},
  cwd: dirname(SNAPSHOT.warm),
  env: {},
  tty,
};
Promise.all(['render/show', 'render/jsonnet'].map((m) => engine.runOneshotRequest(m, params, discard, false))).then(
  (codes) => {
    globalThis.TextDecoder = RealTextDecoder;
    if (codes.some((c) => c !== 0)) throw new Error(`the warm-up render failed (exit codes ${codes.join(', ')})`);
  },
);

startupSnapshot.setDeserializeMainFunction(() => {
  // The wrapper (dist/bin/kubecfg) runs `node --snapshot-blob kubecfg.blob DIR/kubecfg.js ARGS`.
  const script = process.argv[1];
  let ours = false;
  try {
    ours = script !== undefined && realpathSync(script) === SNAPSHOT.cli;
  } catch {
    ours = false;
  }
  // The daemon tests' hooks are modules the CLI import()s, which code from a snapshot cannot do.
  if (ours && process.env.KUBECFG_DAEMON_TEST_HOOKS !== '1') {
    cli.startCli();
    return;
  }
  if (script === undefined) {
    process.stderr.write(`kubecfg: this startup snapshot runs ${SNAPSHOT.cli}: give its path first\n`);
    process.exitCode = 1;
    return;
  }
  // Another tree's CLI (this blob holds the one at SNAPSHOT.cli): run it from its file, as `node
  // kubecfg.js` does; it loads its own engine unless it is the one held here.
  require('node:module').createRequire(script)(script);
});
