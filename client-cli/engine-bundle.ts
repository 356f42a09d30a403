/**
 * Loads the engine bundle (dist/bin/engine.cjs: server/oneshot-run.ts and
 * everything it needs, one file) into this process through node:vm with V8's
 * code cache beside it (engine.cjs.cache). Node 20 has no
 * module.enableCompileCache, and an ES module import cannot take cached data:
 * a CommonJS bundle compiled as one vm.Script can. The cache is written after
 * a command has run, so it holds the functions that command compiled too; V8
 * rejects a cache from another V8 version or source, and then it is rewritten.
 *
 * A process started from the startup snapshot (dist/bin/kubecfg.blob, built by
 * scripts/build.mjs) already holds the bundle, loaded and initialised, in the
 * heap it deserialised: then nothing is read or compiled here.
 */
import { isAscii } from 'node:buffer';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** What the bundle exports (server/oneshot-run.ts); the CLI never imports that module's types. */
export interface Engine {
  runOneshotRequest(
    method: string,
    params: unknown,
    sink: undefined,
    testHooks: boolean,
    testHook?: (...args: never[]) => unknown,
  ): Promise<number>;
}

export interface LoadedEngine {
  engine: Engine;
  /** Writes the code cache when there was none or V8 refused it; best effort (a read-only install keeps working). */
  saveCache(): void;
}

type CommonJsBody = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;

/** Where the snapshot builder leaves the engine it loaded: the bundle's path and its exports. */
export const SNAPSHOT_ENGINE = Symbol.for('kubecfg.startupSnapshotEngine');

/** The engine in this process's startup snapshot, when it is the bundle at `file` (not another tree's). */
function snapshotEngine(file: string): Engine | undefined {
  const held = (globalThis as { [SNAPSHOT_ENGINE]?: { file: string; engine: Engine } })[SNAPSHOT_ENGINE];
  return held?.file === file ? held.engine : undefined;
}

/** undefined when the bundle is not there (a tree built without it, or run from source). */
export function loadEngineBundle(file: string): LoadedEngine | undefined {
  const held = snapshotEngine(file);
  if (held) return { engine: held, saveCache: () => undefined };
  let source: string;
  try {
    const bytes = readFileSync(file);
    // The build makes the bundle ASCII: a copy instead of a UTF-8 decode (11-14 ms of CPU for
    // 3.4 MB), and a one-byte string for V8 to hash and scan. Any other text is still read right.
    source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  } catch {
    return undefined;
  }
  const cacheFile = `${file}.cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // Node's CommonJS wrapper, kept on the bundle's first line so positions in stack traces stay right.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const body = script.runInThisContext() as CommonJsBody;
  const module = { exports: {} };
  body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  return {
    engine: module.exports as Engine,
    saveCache: () => {
      if (!stale) return;
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // not writable: the next run compiles without a cache, as this one did
      }
    },
  };
}
