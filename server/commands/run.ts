/**
 * Dispatch of a command inside a render worker (or the one-shot process).
 * Never throws for bad input: every command returns an outcome with an exit
 * code and the text to print.
 *
 * Every command first reads `.kubecfgrc.jsonnet` (RFC02, rc.ts): its values
 * become flag defaults, its features join the gates, and its reads/probes are
 * dependencies of the outcome (an edited rc file invalidates cached results).
 * For the cluster commands this is only the render half: the outcome's stdout
 * is the objects as JSON, for cluster-stage.ts.
 */
import { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandName, CommandOutcome } from '../worker/messages.js';
import { describeError } from './errors.js';
import { CommandOutput, logStyle } from './output.js';
import { applyRcFile, type RcSettings } from './rc.js';
import type { RunContext } from './run-context.js';
import { testHookFor } from './test-hook.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { RENDERS } from './registry.js';
import { isRemoteFlagError, openRemoteSession, withRemoteReport } from '../remote-inputs/run-remote.js';
import { withRemoteSession, type RemoteSession } from '../remote-inputs/remote-session.js';
import { withChanges } from './stdout-bytes.js';

export type { RunContext };

export function runCommand(command: CommandName, params: CommandParams, ctx: RunContext): CommandOutcome {
  const first = params.args[0];
  const hook = ctx.testHooks ? testHookFor(first) : undefined;
  if (hook) return hook(first!, params.cwd, ctx.shouldStop);
  const recorder = new DependencyRecorder();
  let rc: RcSettings;
  try {
    rc = applyRcFile(command, params, recorder, ctx.shouldStop);
  } catch (err) {
    const out = new CommandOutput(logStyle(params.tty));
    out.log('ERROR', describeError(err));
    return { exitCode: 1, stdout: '', stderr: out.stderrText(), deps: recorder.deps(), cacheable: true };
  }
  const rcFeatures = { features: rc.features, ...(rc.alpha !== undefined ? { alpha: rc.alpha } : {}) };
  // Remote inputs, -U and --root (server/remote-inputs/): looked up in ctx.remote, needs reported back.
  let session: RemoteSession;
  try {
    session = openRemoteSession(
      command,
      rc.params,
      ctx.remote,
      () => gatesFor(new Flags(command, rc.params), rcFeatures),
      recorder,
    );
  } catch (err) {
    if (!isRemoteFlagError(err)) throw err;
    const out = new CommandOutput(logStyle(params.tty));
    out.log('ERROR', err.message);
    return { exitCode: 1, stdout: '', stderr: out.stderrText(), deps: recorder.deps(), cacheable: false };
  }
  const outcome = withRemoteSession(session, () => RENDERS[command](rc.params, { ...ctx, rc: rcFeatures }));
  const warn = (message: string): string => {
    const out = new CommandOutput(logStyle(params.tty));
    out.log('WARNING', message);
    return out.stderrText();
  };
  return withRemoteReport(withChanges(outcome, { deps: [...recorder.deps(), ...outcome.deps] }), session, warn);
}
