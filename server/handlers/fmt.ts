/** `render/fmt` and `render/yaklfmt`: run `kubecfg fmt` / `kubecfg yaklfmt` in a render worker. */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runCommandMethod } from './run-command.js';

export function fmt(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'fmt', params, sink, signal);
}

/** `render/yaklfmt`: runs `kubecfg yaklfmt` in a render worker. */
export function yaklfmt(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'yaklfmt', params, sink, signal);
}
