/** `render/httpd`: serves hook files over HTTP for as long as the client's streaming request is open (server/httpd/). */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import { runHttpd } from '../httpd/session.js';

export function httpd(
  ctx: DaemonContext,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
): Promise<CommandResult> {
  return runHttpd(ctx.runner, params, sink, signal);
}
