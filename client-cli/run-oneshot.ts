/**
 * `--no-daemon` / KUBECFG_DAEMON=0, and the first call when no daemon runs:
 * the command in this process, from the engine bundle (engine-bundle.ts),
 * loaded only here so the daemon path of the CLI stays small. Without the
 * bundle (a tree built by tsc alone) the same module is imported unbundled.
 */
import { fileURLToPath } from 'node:url';
import type { CommandParams } from '../protocol/index.js';
import { loadEngineBundle, type Engine } from './engine-bundle.js';
import { applyOneshotV8Flags } from './oneshot-v8-flags.js';

/** dist/bin/engine.cjs, from the CLI bundle (dist/bin/) and from dist/client-cli/ alike. */
const ENGINE_BUNDLE = fileURLToPath(new URL('../bin/engine.cjs', import.meta.url));

export async function runOneshot(method: string, params: CommandParams): Promise<number> {
  const testHooks = process.env.KUBECFG_DAEMON_TEST_HOOKS === '1';
  applyOneshotV8Flags();
  const loaded = loadEngineBundle(ENGINE_BUNDLE);
  if (loaded) {
    const code = await loaded.engine.runOneshotRequest(method, params, undefined, testHooks);
    loaded.saveCache();
    return code;
  }
  // A specifier esbuild cannot follow, so the CLI bundle never includes the engine.
  const unbundled = '../server/oneshot-run.js';
  const engine = (await import(unbundled)) as Engine;
  return engine.runOneshotRequest(method, params, undefined, testHooks);
}
