/** `render/kubocd-render`, `render/kubocd-dump-package`: run in a render worker (server/commands/kubocd.ts). */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runCommandMethod } from './run-command.js';

export function kubocdRender(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'kubocd-render', params, sink, signal);
}

export function kubocdDumpPackage(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'kubocd-dump-package', params, sink, signal);
}
