/**
 * The command registry's implementation half: what each catalog command (protocol/commands.ts)
 * renders, in a render worker or the one-shot process. Keyed by the catalog's dashed paths, so a
 * command without an implementation here, or an implementation of no command, fails to compile.
 * Whatever runs in the main thread afterwards is the entry's `mainStage` (server/main-stages.ts).
 */
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
import { runEval } from './eval.js';
import { runFeatures } from './features.js';
import { runFmt, runYaklfmt } from './fmt.js';
import { runHttpdHook } from './httpd-hook.js';
import { runJsonnet } from './jsonnet.js';
import { runKclRun } from './kcl.js';
import { runKubocdDumpPackage, runKubocdRender } from './kubocd.js';
import { runMyksMigrate } from './myks.js';
import { planPack } from './pack.js';
import type { RunContext } from './run-context.js';
import { runShow } from './show.js';
import { runTraceback } from './traceback.js';

export type Render = (params: CommandParams, ctx: RunContext) => CommandOutcome;

export const RENDERS: { readonly [C in CommandName]: Render } = {
  show: runShow,
  eval: runEval,
  jsonnet: runJsonnet,
  features: runFeatures,
  fmt: runFmt,
  yaklfmt: runYaklfmt,
  traceback: runTraceback,
  httpd: runHttpdHook,
  'cleat-check': runCleatCheck,
  'cleat-export': runCleatExport,
  'cleat-gen': runCleatGen,
  'cleat-argocd-generate': runCleatArgocdGenerate,
  'cleat-argocd-parameters': runCleatArgocdParameters,
  'cleat-argocd-plugin': runCleatArgocdPlugin,
  'cleat-argocd-dockerfile': runCleatArgocdDockerfile,
  pack: planPack,
  'kubocd-render': runKubocdRender,
  'kubocd-dump-package': runKubocdDumpPackage,
  'kcl-run': runKclRun,
  'myks-migrate': runMyksMigrate,
  // The render half of the cluster commands: the objects as JSON, for the `cluster` main stage.
  diff: (params, ctx) => renderClusterObjects('diff', params, ctx),
  update: (params, ctx) => renderClusterObjects('update', params, ctx),
  delete: (params, ctx) => renderClusterObjects('delete', params, ctx),
  validate: (params, ctx) => renderClusterObjects('validate', params, ctx),
};
