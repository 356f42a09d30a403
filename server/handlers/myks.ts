/** `render/myks-migrate`: runs `kubecfg myks migrate` in a render worker (server/commands/myks.ts); writes files, never cached. */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runCommandMethod } from './run-command.js';

export function myksMigrate(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runCommandMethod(ctx, 'myks-migrate', params, sink, signal);
}
