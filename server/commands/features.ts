/**
 * Feature gates for one request (RFC05) from --features/KUBECFG_FEATURES,
 * the rc file's `flags.features` and --alpha/KUBECFG_ALPHA (the CLI already
 * mapped the env variables to flags). Precedence per feature: --features,
 * then the rc file, then --alpha; the rc file's `alpha` is the default of
 * --alpha. Also `kubecfg features [-o json]`.
 */
import { featuresJson, featuresTable } from '../../render/features/index.js';
import { Gates, splitFeatureFlag, type FeatureSource } from '../../render/features/gates.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from './outcome.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import { CommandOutput, logStyle } from './output.js';
import { RC_SOURCE } from './rc.js';
import type { RcFeatures, RunContext } from './run-context.js';

export function gatesFor(flags: Flags, rc?: RcFeatures): Gates {
  const sources: FeatureSource[] = [];
  const items = splitFeatureFlag(flags.list('features'));
  if (items.length) sources.push({ name: '--features', items });
  if (rc && rc.features.length) sources.push({ name: RC_SOURCE, items: splitFeatureFlag(rc.features) });
  const alpha = flags.given('alpha') ? flags.bool('alpha') : (rc?.alpha ?? false);
  return Gates.resolve(alpha, sources);
}

export function runFeatures(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('features', params);
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    out.stdout(flags.str('format') === 'json' ? featuresJson(gates) : featuresTable(gates));
  } catch (err) {
    out.log('ERROR', describeError(err));
    exitCode = 1;
  }
  return {
    exitCode,
    stdout: exitCode === 0 ? out.stdoutText() : '',
    stderr: out.stderrText(),
    deps: [],
    cacheable: true,
  };
}
