/**
 * `oci/pack`: the render half (closure, metadata) runs where renders run, found
 * through the executor so the result cache is bypassed (pack writes a registry
 * or a file); the network half (git revision, push or --output) runs here, in
 * the main thread, with the client's environment. See server/commands/pack.ts.
 */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import { abortable, type Executor, type OutputSink } from '../command-runner.js';
import { finishPack } from '../commands/pack.js';

export async function runPackCommand(
  executor: Executor,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  const planned = await abortable(executor.execute('pack', params, signal), signal);
  if (planned.stderr !== '') sink.write('stderr', planned.stderr);
  if (planned.exitCode !== 0) return { exitCode: planned.exitCode, cached: false };
  const exitCode = await finishPack(params, planned.stdout, sink, signal);
  return { exitCode, cached: false };
}
