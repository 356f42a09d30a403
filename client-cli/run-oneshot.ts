/**
 * `--no-daemon` / KUBECFG_DAEMON=0: the same command in a child process
 * (`node dist/server/oneshot.js`), the request as one JSON document on its
 * stdin, stdout/stderr inherited. Keeps all server code out of the CLI bundle.
 */
import type { CommandParams, OneshotRequest } from '../protocol/index.js';
import { serverEntry } from './launcher.js';
import { runChild } from './run-child.js';

export function runOneshot(method: string, params: CommandParams): Promise<number> {
  const request: OneshotRequest = { method, params };
  return runChild({ args: [serverEntry('oneshot')], input: JSON.stringify(request) });
}
