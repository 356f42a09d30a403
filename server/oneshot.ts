/**
 * `kubecfg --no-daemon`: the same command without a daemon. Reads one
 * OneshotRequest (JSON) from stdin, validates it exactly as the daemon would,
 * runs the command in this process and prints its output; `show --watch`
 * keeps running until Ctrl-C. Exit code = the command's.
 */
import { FileWatcher } from '../cache/index.js';
import { commandOfMethod, findMethod, ParamsError, type CommandParams } from '../protocol/index.js';
import { CommandRunner, type Executor, type OutputSink } from './command-runner.js';
import { runCommand } from './commands/run.js';
import { runClusterCommand } from './handlers/cluster.js';
import { runHttpd } from './httpd/session.js';
import { runPackCommand } from './handlers/pack.js';
import { ChangeHub, runWatch } from './watch-session.js';
import { RemoteInputs } from './remote-inputs/remote-fetcher.js';
import type { CommandName } from './worker/messages.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function fail(message: string): number {
  process.stderr.write(`kubecfg: ${message}\n`);
  return 1;
}

async function main(): Promise<number> {
  let request: { method?: unknown; params?: unknown };
  try {
    request = JSON.parse(await readStdin()) as { method?: unknown; params?: unknown };
  } catch (err) {
    return fail(`the one-shot request is not JSON: ${(err as Error).message}`);
  }
  const method = typeof request.method === 'string' ? request.method : '';
  const descriptor = findMethod(method);
  const command = commandOfMethod(method) as CommandName | undefined;
  if (!descriptor || !descriptor.streaming || !command) return fail(`unknown command method "${method}"`);
  let params: CommandParams;
  try {
    params = descriptor.validate(request.params) as CommandParams;
  } catch (err) {
    if (err instanceof ParamsError) return fail(err.message);
    throw err;
  }
  const testHooks = process.env.KUBECFG_DAEMON_TEST_HOOKS === '1';
  // Remote inputs are fetched between render rounds (server/remote-inputs/), here as in the daemon.
  const remoteInputs = new RemoteInputs();
  const sink: OutputSink = {
    write: (stream, data) => void (stream === 'stdout' ? process.stdout : process.stderr).write(data),
  };
  if (command === 'show' && params.flags.watch === true) {
    const hub = new ChangeHub();
    const watcher = new FileWatcher({ debounceMs: 50, onChange: (paths) => hub.emit(paths) });
    const executor: Executor = {
      execute: (c, p) =>
        remoteInputs.run(async (remote) => runCommand(c, p, { shouldStop: () => false, testHooks, remote })),
    };
    const ctl = new AbortController();
    process.on('SIGINT', () => ctl.abort());
    try {
      await runWatch(new CommandRunner(executor, null, watcher), hub, command, params, sink, ctl.signal);
    } catch {
      // cancelled by Ctrl-C
    }
    await watcher.close();
    return 130;
  }
  if (command === 'httpd') {
    // The hooks are served from this process until Ctrl-C; each request renders here, in turn.
    const executor: Executor = {
      execute: (c, p) =>
        remoteInputs.run(async (remote) => runCommand(c, p, { shouldStop: () => false, testHooks, remote })),
    };
    const ctl = new AbortController();
    process.on('SIGINT', () => ctl.abort());
    try {
      return (await runHttpd(new CommandRunner(executor, null, null), params, sink, ctl.signal)).exitCode;
    } catch {
      return 130; // stopped by Ctrl-C
    }
  }
  if (command === 'diff' || command === 'update' || command === 'delete' || command === 'validate') {
    const executor: Executor = {
      execute: (c, p) =>
        remoteInputs.run(async (remote) => runCommand(c, p, { shouldStop: () => false, testHooks, remote })),
    };
    const ctl = new AbortController();
    process.on('SIGINT', () => ctl.abort());
    try {
      return (await runClusterCommand(executor, command, params, sink, ctl.signal)).exitCode;
    } catch {
      return 130; // cancelled by Ctrl-C
    }
  }
  if (command === 'pack') {
    const executor: Executor = {
      execute: (c, p) =>
        remoteInputs.run(async (remote) => runCommand(c, p, { shouldStop: () => false, testHooks, remote })),
    };
    const ctl = new AbortController();
    process.on('SIGINT', () => ctl.abort());
    try {
      return (await runPackCommand(executor, params, sink, ctl.signal)).exitCode;
    } catch {
      return 130; // cancelled by Ctrl-C
    }
  }
  const outcome = await remoteInputs.run(async (remote) =>
    runCommand(command, params, { shouldStop: () => false, testHooks, remote }),
  );
  await remoteInputs.close();
  sink.write('stdout', outcome.stdout);
  sink.write('stderr', outcome.stderr);
  return outcome.exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = fail(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  },
);
