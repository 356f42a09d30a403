/**
 * `--no-daemon` / KUBECFG_DAEMON=0, and the first call when no daemon runs:
 * the command in this process, from the engine bundle (engine-bundle.ts),
 * loaded only here so the daemon path of the CLI stays small. Without the
 * bundle (a tree built by tsc alone) the same module is imported unbundled.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CommandParams } from '../protocol/index.js';
import { loadEngineBundle, type Engine } from './engine-bundle.js';
import { applyOneshotV8Flags } from './oneshot-v8-flags.js';

/** dist/bin/engine.cjs, from the CLI bundle (dist/bin/) and from dist/client-cli/ alike. */
const ENGINE_BUNDLE = fileURLToPath(new URL('../bin/engine.cjs', import.meta.url));

/**
 * The daemon tests' render hooks (KUBECFG_DAEMON_TEST_HOOKS=1 and a module in
 * KUBECFG_DAEMON_TEST_HOOK_MODULE; see server/commands/test-hook.ts), imported
 * here because the bundle, run by node:vm, cannot import a module itself.
 */
async function testHook(): Promise<((...args: never[]) => unknown) | undefined> {
  const path = process.env.KUBECFG_DAEMON_TEST_HOOK_MODULE;
  if (process.env.KUBECFG_DAEMON_TEST_HOOKS !== '1' || path === undefined || path === '') return undefined;
  return ((await import(pathToFileURL(path).href)) as { runTestHook: (...args: never[]) => unknown }).runTestHook;
}

export async function runOneshot(method: string, params: CommandParams): Promise<number> {
  const testHooks = process.env.KUBECFG_DAEMON_TEST_HOOKS === '1';
  applyOneshotV8Flags();
  const loaded = loadEngineBundle(ENGINE_BUNDLE);
  if (loaded) {
    const code = await loaded.engine.runOneshotRequest(method, params, undefined, testHooks, await testHook());
    loaded.saveCache();
    return code;
  }
  // A specifier esbuild cannot follow, so the CLI bundle never includes the engine.
  const unbundled = '../server/oneshot-run.js';
  const engine = (await import(unbundled)) as Engine;
  return engine.runOneshotRequest(method, params, undefined, testHooks);
}
