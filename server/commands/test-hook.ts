/**
 * The daemon tests' render behaviours (spin, hang, oom, echo, throw: see
 * test/support/daemon-test-hooks.ts) are not part of the product: with
 * KUBECFG_DAEMON_TEST_HOOKS=1, each process that runs commands imports the
 * module KUBECFG_DAEMON_TEST_HOOK_MODULE names, once, before its first
 * command; runCommand then hands it `*.kubecfg-test-hook` inputs. Without
 * both variables nothing is imported and such files are ordinary inputs.
 */
import { pathToFileURL } from 'node:url';
import type { CommandOutcome } from '../worker/messages.js';

export const TEST_HOOK_SUFFIX = '.kubecfg-test-hook';

export type TestHook = (file: string, cwd: string, shouldStop: () => boolean) => CommandOutcome;

let installed: TestHook | undefined;

/**
 * Imports the test hook module when `enabled` (the process was started with
 * KUBECFG_DAEMON_TEST_HOOKS=1), or takes the hook a caller already imported.
 */
export async function installTestHook(enabled: boolean, given?: TestHook): Promise<void> {
  const path = process.env.KUBECFG_DAEMON_TEST_HOOK_MODULE;
  if (!enabled || installed !== undefined) return;
  if (given !== undefined) {
    installed = given;
    return;
  }
  if (path === undefined || path === '') return;
  const mod = (await import(pathToFileURL(path).href)) as { runTestHook: TestHook };
  installed = mod.runTestHook;
}

/** The installed hook for a `*.kubecfg-test-hook` input, if any. */
export function testHookFor(file: string | undefined): TestHook | undefined {
  return file?.endsWith(TEST_HOOK_SUFFIX) ? installed : undefined;
}
