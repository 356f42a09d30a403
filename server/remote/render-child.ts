/**
 * Entry of a remote render child (`node render-child.js '<import hosts JSON>'`),
 * started and kept warm by child-runner.ts under OS limits. Once its modules
 * are loaded it guards the network (net-guard.ts: only the tenant's import
 * hosts), jails the file system (fs-jail.ts: only the current request's work
 * directory; writes refused), writes CHILD_STARTED on stderr, then reads one
 * RenderChildRequest per stdin line and answers one RenderChildReply per
 * stdout line, running each command exactly as the daemon's workers do.
 * Output (stdout, or stderr: std.trace and error text) larger than the cap is
 * replaced by a limit reply here, so the parent never has to parse it.
 *
 * Remote inputs (https://, oci://, -U, --resolve-images=registry) are looked
 * up in the snapshot the request carries; what is not in it yet comes back
 * as the reply's `remote.needs`, and the parent (render-service.ts) fetches
 * it under the tenant's allow-list and sends the request again. The child
 * itself never opens a socket (the net guard refuses every host but the
 * tenant's, and nothing here asks for one).
 *
 * Invariants: stdout carries only reply lines; between requests the jail
 * names no directory (every path is missing); a crash (stack overflow that
 * escapes, out of memory) ends the process, which the parent reports.
 */
import { createInterface } from 'node:readline';
import { fileDepToJson } from '../../cache/index.js';
import { runCommand } from '../commands/run.js';
import { CHILD_STARTED, type RenderChildReply, type RenderChildRequest } from './child-protocol.js';
import { installFsJail } from './fs-jail.js';
import { installNetGuard } from './net-guard.js';
import { decodeSnapshot } from './snapshot-codec.js';

/** No request: a path that cannot exist, so everything is missing. */
const NOWHERE = '/\0kubecfg-render-child-idle';

function renderOne(request: RenderChildRequest): RenderChildReply {
  const outcome = runCommand(request.command, request.params, {
    shouldStop: () => false,
    testHooks: false,
    ...(request.remote !== undefined ? { remote: decodeSnapshot(request.remote) } : {}),
  });
  const pending = (outcome.remote?.needs.length ?? 0) > 0;
  // A round that still needs inputs is thrown away by the parent: its output is not checked.
  const bytes = Buffer.byteLength(outcome.stdout);
  if (!pending && bytes > request.outputBytes) return { kind: 'output-too-large', stream: 'stdout', bytes };
  // std.trace lines and error text are capped too: a 20 MB trace must not travel (nor kill the child's reply line).
  const stderrBytes = Buffer.byteLength(outcome.stderr);
  if (stderrBytes > request.outputBytes) return { kind: 'output-too-large', stream: 'stderr', bytes: stderrBytes };
  return {
    kind: 'done',
    exitCode: outcome.exitCode,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    cacheable: outcome.cacheable,
    deps: outcome.deps.map(fileDepToJson),
    ...(outcome.remote !== undefined ? { remote: outcome.remote } : {}),
  };
}

function main(): void {
  const hosts = JSON.parse(process.argv[2] ?? '[]') as unknown;
  installNetGuard(Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : []);
  let root = NOWHERE;
  installFsJail(() => root);
  process.stderr.write(CHILD_STARTED);
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    const request = JSON.parse(line) as RenderChildRequest;
    root = request.root;
    process.chdir(request.root);
    let reply: RenderChildReply;
    try {
      reply = renderOne(request);
    } finally {
      root = NOWHERE;
      process.chdir('/');
    }
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
  lines.on('close', () => process.exit(0));
}

try {
  main();
} catch (err) {
  // Only the kind of failure travels; the parent never forwards this text to the client.
  process.stderr.write(`render child failed: ${err instanceof Error ? err.name : 'error'}\n`);
  process.exit(70);
}
