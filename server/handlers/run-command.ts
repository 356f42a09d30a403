/**
 * Every streaming command method: `--watch` re-renders until cancelled, a command with a main
 * stage runs it (server/main-stages.ts), any other is one render in a worker, cached.
 */
import { mainStageOf, type CommandParams, type CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { MAIN_STAGES } from '../main-stages.js';
import { runWatch } from '../watch-session.js';
import type { CommandName } from '../worker/messages.js';

export async function runCommandMethod(
  ctx: DaemonContext,
  command: CommandName,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  // Only commands whose catalog entry has a `watch` flag can carry it (the params validator says so).
  if (params.flags.watch === true) return runWatch(ctx.runner, ctx.hub, command, params, sink, signal);
  const stage = mainStageOf(command);
  if (stage) return (await MAIN_STAGES[stage]())(ctx.runner, command, params, sink, signal);
  return ctx.runner.run(command, params, sink, signal);
}
