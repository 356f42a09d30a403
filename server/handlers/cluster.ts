/**
 * `cluster/diff`, `cluster/update`, `cluster/delete`, `cluster/validate`: the
 * render half runs where renders run (a worker, found through the executor
 * so the result cache is bypassed: these commands read the cluster), then
 * the cluster half runs here, in the main thread, with the client's
 * environment. Output streams as it is produced (update's progress lines).
 */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import { abortable, type Executor, type OutputSink } from '../command-runner.js';
import { runClusterStage } from '../commands/cluster-stage.js';
import type { ClusterCommandName } from '../worker/messages.js';

export async function runClusterCommand(
  executor: Executor,
  command: ClusterCommandName,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  const rendered = await abortable(executor.execute(command, params, signal), signal);
  if (rendered.stderr !== '') sink.write('stderr', rendered.stderr);
  if (rendered.exitCode !== 0) return { exitCode: rendered.exitCode, cached: false };
  const exitCode = await runClusterStage(command, params, rendered.stdout, sink, signal);
  return { exitCode, cached: false };
}
