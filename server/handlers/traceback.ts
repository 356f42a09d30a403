/** `render/traceback`: runs `kubecfg traceback` in a render worker, streaming its output. */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runCommandMethod } from './run-command.js';

export function traceback(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'traceback', params, sink, signal);
}
