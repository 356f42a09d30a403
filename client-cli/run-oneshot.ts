/**
 * `--no-daemon` / KUBECFG_DAEMON=0: the same command in a child process
 * (`node dist/server/oneshot.js`), the request as one JSON document on its
 * stdin, stdout/stderr inherited. Keeps all server code out of the CLI bundle.
 */
import { spawn } from 'node:child_process';
import type { CommandParams, OneshotRequest } from '../protocol/index.js';
import { serverEntry } from './launcher.js';
import { EXIT_INTERRUPTED } from './run-remote.js';

export function runOneshot(method: string, params: CommandParams): Promise<number> {
  const request: OneshotRequest = { method, params };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [serverEntry('oneshot')], { stdio: ['pipe', 'inherit', 'inherit'] });
    // A terminal Ctrl-C reaches the child too (same process group), but a SIGINT sent to
    // the CLI alone must reach it as well: forward it (a second SIGINT is harmless).
    const forward = (): void => {
      child.kill('SIGINT');
    };
    process.on('SIGINT', forward);
    child.on('error', (err) => {
      process.stderr.write(`kubecfg: cannot run ${process.execPath}: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      resolve(code ?? (signal === 'SIGINT' ? EXIT_INTERRUPTED : 1));
    });
    child.stdin!.on('error', () => {});
    child.stdin!.end(JSON.stringify(request));
  });
}
