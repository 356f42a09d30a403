/**
 * The main-thread half of the commands that have one (protocol/commands.ts `mainStage`), shared
 * by the daemon's router and the one-shot process. Each stage is imported on first use: the
 * cluster client, the OCI pusher and fastify stay out of a process that never needs them.
 */
import type { ClusterCommandName, CommandName } from './worker/messages.js';
import type { CommandParams, CommandResult, MainStageName } from '../protocol/index.js';
import type { CommandRunner, OutputSink } from './command-runner.js';

export type MainStage = (
  runner: CommandRunner,
  command: CommandName,
  params: CommandParams,
  sink: OutputSink,
  signal: AbortSignal,
) => Promise<CommandResult>;

export const MAIN_STAGES: { readonly [S in MainStageName]: () => Promise<MainStage> } = {
  cluster: async () => {
    const { runClusterCommand } = await import('./handlers/cluster.js');
    // The catalog gives the cluster stage only to diff, update, delete and validate.
    return (runner, command, params, sink, signal) =>
      runClusterCommand(runner.executor, command as ClusterCommandName, params, sink, signal);
  },
  pack: async () => {
    const { runPackCommand } = await import('./handlers/pack.js');
    return (runner, _command, params, sink, signal) => runPackCommand(runner.executor, params, sink, signal);
  },
  httpd: async () => {
    const { runHttpd } = await import('./httpd/session.js');
    return (runner, _command, params, sink, signal) => runHttpd(runner, params, sink, signal);
  },
};
