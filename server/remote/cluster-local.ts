/**
 * Client-side helper for `kubecfg --remote ... diff|update|delete|validate`:
 * the render half runs on the remote service (through the same manifest and
 * upload path as `show`), the cluster half runs here with the user's own
 * kubeconfig, exactly as the daemon's cluster handler does. Reads one
 * ClusterHelperRequest (JSON) on stdin; exit code = the command's.
 */
import type { CommandParams } from '../../protocol/index.js';
import {
  describeRemoteFailure,
  retryDelayMs,
  type ClusterHelperRequest,
} from '../../client-cli/remote/run-remote-command.js';
import { renderRemotely } from '../../client-cli/remote/remote-render.js';
import type { Executor, OutputSink } from '../command-runner.js';
import { runClusterCommand } from '../handlers/cluster.js';
import type { ClusterCommandName } from '../worker/messages.js';

class ReportedError extends Error {}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<number> {
  const request = JSON.parse(await readStdin()) as ClusterHelperRequest;
  const command = request.method.slice('cluster/'.length) as ClusterCommandName;
  const endpoint = {
    url: new URL(request.remote.url),
    token: request.remote.token,
    ...(request.remote.ca !== undefined ? { ca: request.remote.ca } : {}),
  };
  const executor: Executor = {
    async execute(_command, params: CommandParams) {
      try {
        const warn = (l: string): boolean => process.stderr.write(l + '\n');
        const { result } = await renderRemotely(endpoint, request.method, params, warn, retryDelayMs(process.env));
        return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, deps: [], cacheable: false };
      } catch (err) {
        const text = describeRemoteFailure(err);
        if (text === undefined) throw err;
        process.stderr.write(text + '\n');
        throw new ReportedError();
      }
    },
  };
  const sink: OutputSink = {
    write: (stream, data) => void (stream === 'stdout' ? process.stdout : process.stderr).write(data),
  };
  const ctl = new AbortController();
  process.on('SIGINT', () => ctl.abort());
  try {
    return (await runClusterCommand(executor, command, request.params, sink, ctl.signal)).exitCode;
  } catch (err) {
    if (err instanceof ReportedError) return 1;
    if (ctl.signal.aborted) return 130;
    throw err;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `kubecfg: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exitCode = 1;
  },
);
