/**
 * Shared body of the three command methods: plain render, or `show --watch`.
 */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runWatch } from '../watch-session.js';
import type { CommandName } from '../worker/messages.js';

export function runCommandMethod(
  ctx: DaemonContext,
  command: CommandName,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  if (command === 'show' && params.flags.watch === true)
    return runWatch(ctx.runner, ctx.hub, command, params, sink, signal);
  return ctx.runner.run(command, params, sink, signal);
}
