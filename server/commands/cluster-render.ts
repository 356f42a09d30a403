/**
 * First half of `diff`, `update`, `delete` and `validate`, run where renders
 * run (worker or one-shot process): evaluate the inputs exactly as `show`
 * does (`.jsonnet` and `.yakl` (feature yakl) evaluated and searched for
 * objects, `.json`/`.yaml` read as manifests, anything else refused) and return the objects as a JSON array on
 * the outcome's stdout. The second half (cluster-stage.ts) talks to the
 * cluster. Never cacheable: the command's result depends on the cluster.
 */
import { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { guardDepth, showObjects } from '../../render/index.js';
import type { ClusterCommandName, CommandOutcome } from '../worker/messages.js';
import { createEngine, type Engine } from './engine.js';
import { describeError } from './errors.js';
import { readEvalInputs } from './eval-inputs.js';
import { InputFailure } from './input-files.js';
import { checkRepeatRead } from './repeat-read.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { CommandOutput, logStyle, traceTo } from './output.js';
import type { RunContext } from './run-context.js';

export function renderClusterObjects(
  command: ClusterCommandName,
  params: CommandParams,
  ctx: RunContext,
): CommandOutcome {
  const flags = new Flags(command, params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    let engine: Engine | undefined;
    const getEngine = (): Engine =>
      (engine ??= createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out)));
    const { inputs } = readEvalInputs(params, flags, gates, recorder, getEngine);
    if (command === 'validate' && flags.bool('repeat-eval')) {
      // kubecfg's ReadTwice: a second evaluation (with a fresh engine, so nothing is replayed from the
      // first) must give the same value.
      let second: Engine | undefined;
      const again = readEvalInputs(
        params,
        flags,
        gates,
        recorder,
        () => (second ??= createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out))),
      );
      checkRepeatRead(inputs, again.inputs, params.cwd);
    }
    const objects = showObjects(inputs, { showProvenance: false }).map((f) => f.object);
    out.stdout(guardDepth(() => JSON.stringify(objects)));
  } catch (err) {
    out.log('ERROR', err instanceof InputFailure ? err.message : describeError(err));
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), false);
}
