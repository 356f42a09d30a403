/** `render/cleat-check`, `-export`, `-gen` and `-argocd-*`: run the Cleat commands in a render worker. */
import type { CommandParams, CommandResult } from '../../protocol/index.js';
import type { OutputSink } from '../command-runner.js';
import type { DaemonContext } from '../daemon-context.js';
import type { StreamingHandler } from '../rpc/router.js';
import type { CommandName } from '../worker/messages.js';
import { runCommandMethod } from './run-command.js';

function cleatHandler(command: CommandName & `cleat-${string}`): StreamingHandler {
  return (ctx: DaemonContext, params: CommandParams, sink: OutputSink, signal: AbortSignal): Promise<CommandResult> =>
    runCommandMethod(ctx, command, params, sink, signal);
}

export const cleatCheck = cleatHandler('cleat-check');
export const cleatExport = cleatHandler('cleat-export');
export const cleatGen = cleatHandler('cleat-gen');
export const cleatArgocdGenerate = cleatHandler('cleat-argocd-generate');
export const cleatArgocdParameters = cleatHandler('cleat-argocd-parameters');
export const cleatArgocdPlugin = cleatHandler('cleat-argocd-plugin');
export const cleatArgocdDockerfile = cleatHandler('cleat-argocd-dockerfile');
