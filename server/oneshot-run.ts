/**
 * `kubecfg --no-daemon` and the first call without a daemon: one command run
 * in the calling process, validated exactly as the daemon validates it, with
 * the daemon's error texts and exit codes. The CLI loads this module lazily
 * from a bundle (dist/bin/engine.cjs, see scripts/build.mjs) so its daemon
 * path never pays for the engine.
 */
import { commandOfMethod, findMethod, mainStageOf, ParamsError, type CommandParams } from '../protocol/index.js';
import type { Executor, OutputSink } from './command-runner.js';
import { runCommand } from './commands/run.js';
import { installTestHook, type TestHook } from './commands/test-hook.js';
import { renderOnlyOnce } from './commands/engine.js';
import { RemoteInputs } from './remote-inputs/remote-fetcher.js';
import { knownStdoutBytes } from './commands/stdout-bytes.js';

// Watch and the main stages (httpd, cluster, pack) are imported when used: their libraries
// (chokidar, fastify, the cluster client) would otherwise load before every one-shot render.

export const EXIT_INTERRUPTED = 130;

function fail(sink: OutputSink, message: string): number {
  sink.write('stderr', `kubecfg: ${message}\n`);
  return 1;
}

const processSink: OutputSink = {
  write: (stream, data) => void (stream === 'stdout' ? process.stdout : process.stderr).write(data),
  writeBytes: (stream, data) => void (stream === 'stdout' ? process.stdout : process.stderr).write(data),
};

/**
 * Runs `method` with `rawParams` (not yet validated) and answers the exit code.
 * A failure inside the command is reported as the daemon reports it
 * (`kubecfg: internal error in METHOD: why`, exit 1); only Ctrl-C answers 130.
 */
export async function runOneshotRequest(
  method: string,
  rawParams: unknown,
  sink: OutputSink = processSink,
  testHooks = false,
  /** The test hook, when the caller imported it (the bundle, run by node:vm, cannot import). */
  testHook?: TestHook,
): Promise<number> {
  await installTestHook(testHooks, testHook);
  const descriptor = findMethod(method);
  const command = commandOfMethod(method);
  if (!descriptor || !descriptor.streaming || !command) return fail(sink, `unknown command method "${method}"`);
  let params: CommandParams;
  try {
    params = descriptor.validate(rawParams) as CommandParams;
  } catch (err) {
    if (err instanceof ParamsError) return fail(sink, err.message);
    throw err;
  }
  // Remote inputs are fetched between render rounds (server/remote-inputs/), here as in the daemon.
  const remoteInputs = new RemoteInputs();
  const executor: Executor = {
    execute: (c, p) =>
      remoteInputs.run(async (remote) => runCommand(c, p, { shouldStop: () => false, testHooks, remote })),
  };
  const ctl = new AbortController();
  const onSigint = (): void => ctl.abort();
  const longRunning = params.flags.watch === true;
  const stage = mainStageOf(command);
  const interactive = longRunning || stage !== undefined;
  if (interactive) process.on('SIGINT', onSigint);
  try {
    if (longRunning) {
      const [{ FileWatcher }, { CommandRunner }, { ChangeHub, runWatch }] = await Promise.all([
        import('../cache/index.js'),
        import('./command-runner.js'),
        import('./watch-session.js'),
      ]);
      const hub = new ChangeHub();
      const watcher = new FileWatcher({ debounceMs: 50, onChange: (paths) => hub.emit(paths) });
      try {
        await runWatch(new CommandRunner(executor, null, watcher), hub, command, params, sink, ctl.signal);
      } finally {
        await watcher.close();
      }
    }
    if (stage) {
      // The stage runs here as in the daemon's main thread; its renders run in this process, in turn.
      const [{ CommandRunner }, { MAIN_STAGES }] = await Promise.all([
        import('./command-runner.js'),
        import('./main-stages.js'),
      ]);
      const run = await MAIN_STAGES[stage]();
      return (await run(new CommandRunner(executor, null, null), command, params, sink, ctl.signal)).exitCode;
    }
    // One command of one input, then exit: the daemon's caches for a next request would only cost
    // this one. With several inputs (`show a.jsonnet b.jsonnet`) the later ones reuse the libraries
    // the first evaluated, as in the daemon.
    if (params.args.length <= 1) renderOnlyOnce();
    const outcome = await executor.execute(command, params, ctl.signal);
    // A command's own UTF-8 (`jsonnet`'s JSON) is printed as it is: its text is never made.
    const bytes = knownStdoutBytes(outcome);
    if (bytes !== undefined && sink.writeBytes) {
      if (bytes.byteLength > 0)
        sink.writeBytes('stdout', Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    } else sink.write('stdout', outcome.stdout);
    sink.write('stderr', outcome.stderr);
    return outcome.exitCode;
  } catch (err) {
    // Ctrl-C rejects the running command (JobCancelledError); anything else is a bug, said as the daemon says it.
    if (ctl.signal.aborted) return EXIT_INTERRUPTED;
    return fail(sink, `internal error in ${method}: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (interactive) process.off('SIGINT', onSigint);
    await remoteInputs.close();
  }
}
