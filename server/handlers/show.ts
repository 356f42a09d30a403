/** `render/show`: runs `kubecfg show` in a render worker, streaming its output. */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runCommandMethod } from './run-command.js';

export function show(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'show', params, sink, signal);
}
