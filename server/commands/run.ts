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
import { runCleatCheck, runCleatExport, runCleatGen } from './cleat.js';
import {
  runCleatArgocdDockerfile,
  runCleatArgocdGenerate,
  runCleatArgocdParameters,
  runCleatArgocdPlugin,
} from './cleat-argocd.js';
import { renderClusterObjects } from './cluster-render.js';
import { planPack } from './pack.js';
import { runKubocdDumpPackage, runKubocdRender } from './kubocd.js';
import { runKclRun } from './kcl.js';
import { runMyksMigrate } from './myks.js';
import { describeError } from './errors.js';
import { runEval } from './eval.js';
import { runFeatures } from './features.js';
import { runFmt, runYaklfmt } from './fmt.js';
import { runJsonnet } from './jsonnet.js';
import { colorEnabled, CommandOutput } from './output.js';
import { applyRcFile, type RcSettings } from './rc.js';
import type { RunContext } from './run-context.js';
import { runShow } from './show.js';
import { runTestHook, TEST_HOOK_SUFFIX } from './hooks-for-tests.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { isRemoteFlagError, openRemoteSession, withRemoteReport } from '../remote-inputs/run-remote.js';
import { withRemoteSession, type RemoteSession } from '../remote-inputs/remote-session.js';
import { runTraceback } from './traceback.js';
import { runHttpdHook } from './httpd-hook.js';

export type { RunContext };

function dispatch(command: CommandName, params: CommandParams, ctx: RunContext): CommandOutcome {
  switch (command) {
    case 'show':
      return runShow(params, ctx);
    case 'eval':
      return runEval(params, ctx);
    case 'jsonnet':
      return runJsonnet(params, ctx);
    case 'features':
      return runFeatures(params, ctx);
    case 'fmt':
      return runFmt(params, ctx);
    case 'yaklfmt':
      return runYaklfmt(params, ctx);
    case 'cleat-check':
      return runCleatCheck(params, ctx);
    case 'cleat-export':
      return runCleatExport(params, ctx);
    case 'cleat-gen':
      return runCleatGen(params, ctx);
    case 'cleat-argocd-generate':
      return runCleatArgocdGenerate(params, ctx);
    case 'cleat-argocd-parameters':
      return runCleatArgocdParameters(params, ctx);
    case 'cleat-argocd-plugin':
      return runCleatArgocdPlugin(params, ctx);
    case 'cleat-argocd-dockerfile':
      return runCleatArgocdDockerfile(params, ctx);
    case 'pack':
      return planPack(params, ctx);
    case 'kubocd-render':
      return runKubocdRender(params, ctx);
    case 'kubocd-dump-package':
      return runKubocdDumpPackage(params, ctx);
    case 'kcl-run':
      return runKclRun(params, ctx);
    case 'myks-migrate':
      return runMyksMigrate(params, ctx);
    case 'traceback':
      return runTraceback(params, ctx);
    case 'httpd':
      return runHttpdHook(params, ctx);
    case 'diff':
    case 'update':
    case 'delete':
    case 'validate':
      return renderClusterObjects(command, params, ctx);
  }
}

export function runCommand(command: CommandName, params: CommandParams, ctx: RunContext): CommandOutcome {
  const first = params.args[0];
  if (ctx.testHooks && first?.endsWith(TEST_HOOK_SUFFIX)) return runTestHook(first, params.cwd, ctx.shouldStop);
  const recorder = new DependencyRecorder();
  let rc: RcSettings;
  try {
    rc = applyRcFile(command, params, recorder, ctx.shouldStop);
  } catch (err) {
    const out = new CommandOutput(colorEnabled(params.tty));
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
    const out = new CommandOutput(colorEnabled(params.tty));
    out.log('ERROR', err.message);
    return { exitCode: 1, stdout: '', stderr: out.stderrText(), deps: recorder.deps(), cacheable: false };
  }
  const outcome = withRemoteSession(session, () => dispatch(command, rc.params, { ...ctx, rc: rcFeatures }));
  const warn = (message: string): string => {
    const out = new CommandOutput(colorEnabled(params.tty));
    out.log('WARNING', message);
    return out.stderrText();
  };
  return withRemoteReport({ ...outcome, deps: [...recorder.deps(), ...outcome.deps] }, session, warn);
}
