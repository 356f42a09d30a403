/**
 * Entry of one remote render's child process (`node render-child.js`), run
 * by child-runner.ts under OS limits. Reads one RenderChildRequest (JSON) on
 * stdin, jails the file system to the request's work directory (fs-jail.ts)
 * and the network to the tenant's import hosts (net-guard.ts),
 * runs the command exactly as the daemon's workers do, and writes one
 * RenderChildReply (JSON) on stdout. Output larger than the cap is replaced
 * by a limit reply here, so the parent never has to parse it.
 *
 * Invariant: nothing is written to stdout but the single reply; a crash
 * (stack overflow that escapes, out of memory) leaves stdout without a
 * complete reply, which the parent reports as a killed or crashed render.
 */
import { fileDepToJson, type FileDepJson } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { runCommand } from '../commands/run.js';
import type { CommandName } from '../worker/messages.js';
import { CHILD_STARTED } from './child-runner.js';
import { installFsJail } from './fs-jail.js';
import { installNetGuard } from './net-guard.js';

export interface RenderChildRequest {
  command: CommandName;
  params: CommandParams;
  /** The request's work directory: the only place the render may read. */
  root: string;
  /** Largest stdout the render may produce. */
  outputBytes: number;
  /** Hosts remote imports may reach (the tenant's list); empty = no network. */
  importHosts: string[];
}

export type RenderChildReply =
  | { kind: 'done'; exitCode: number; stdout: string; stderr: string; cacheable: boolean; deps: FileDepJson[] }
  | { kind: 'output-too-large'; bytes: number };

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  process.stderr.write(CHILD_STARTED);
  const request = JSON.parse(await readStdin()) as RenderChildRequest;
  process.chdir(request.root);
  installFsJail(request.root);
  installNetGuard(request.importHosts);
  const outcome = runCommand(request.command, request.params, { shouldStop: () => false, testHooks: false });
  const bytes = Buffer.byteLength(outcome.stdout);
  const reply: RenderChildReply =
    bytes > request.outputBytes
      ? { kind: 'output-too-large', bytes }
      : {
          kind: 'done',
          exitCode: outcome.exitCode,
          stdout: outcome.stdout,
          stderr: outcome.stderr,
          cacheable: outcome.cacheable,
          deps: outcome.deps.map(fileDepToJson),
        };
  process.stdout.write(JSON.stringify(reply), () => process.exit(0));
}

main().catch((err: unknown) => {
  // Only the kind of failure travels; the parent never forwards this text to the client.
  process.stderr.write(`render child failed: ${err instanceof Error ? err.name : 'error'}\n`);
  process.exit(70);
});
