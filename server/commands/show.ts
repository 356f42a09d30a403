/**
 * `kubecfg show`: evaluate each input (and `-e` code) and print the Kubernetes
 * objects, in kubecfg's order of steps (render/show.ts): `.jsonnet` files are
 * evaluated and searched for objects (with provenance when asked), and so are
 * `.yakl` files (feature yakl) once compiled (yakl-*.ts); `.json` and
 * `.yaml` files are read as plain manifests; `.cleat` programs (feature
 * cleat) are exported and their documents searched (cleat-input.ts); any
 * other suffix is refused, as kubecfg does. Then duplicates go, `--reorder=server` applies the `update`
 * order, and the YAML stream or JSON is printed. A failure prints
 * `ERROR error reading FILE: why` and exits 1.
 */
import { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import { renderShow, showObjects } from '../../render/index.js';
import { FeatureError } from '../../render/features/gates.js';
import type { CommandOutcome } from '../worker/messages.js';
import { createEngine, type Engine } from './engine.js';
import { umaskOf } from './user-files.js';
import { describeError } from './errors.js';
import { readEvalInputs } from './eval-inputs.js';
import { InputFailure } from './input-files.js';
import { exportObjects } from './export-dir.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { CommandOutput, logStyle, traceTo } from './output.js';
import type { RunContext } from './run-context.js';

export function runShow(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('show', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  let cacheable = true;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    if (flags.str('reorder') === 'client')
      throw new FeatureError('--reorder=client is not defined by kubecfg (its help says TODO); use --reorder=server');

    let engine: Engine | undefined;
    const getEngine = (): Engine =>
      (engine ??= createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out)));
    const read = readEvalInputs(params, flags, gates, recorder, getEngine);
    cacheable &&= read.cacheable;
    const inputs = read.inputs;
    const reorder = flags.str('reorder') === 'server' ? 'server' : undefined;
    const format = flags.str('format') === 'json' ? 'json' : 'yaml';
    const showProvenance = flags.bool('show-provenance');
    if (flags.given('export-dir')) {
      // Files written elsewhere are a side effect the result cache cannot replay.
      cacheable = false;
      const objects = showObjects(inputs, { showProvenance, reorder }).map((f) => f.object);
      exportObjects(objects, {
        dir: flags.path(flags.str('export-dir')),
        dirName: flags.str('export-dir'),
        format,
        fileNameFormat: flags.str('export-filename-format'),
        extension: flags.str('export-filename-extension') || format,
        umask: umaskOf(params),
        // Each re-render of a watch replaces the previous one's files (export-dir.ts).
        replace: flags.bool('watch'),
      });
    } else {
      out.stdout(renderShow(inputs, { format, showProvenance, reorder }));
    }
  } catch (err) {
    out.log('ERROR', err instanceof InputFailure ? err.message : describeError(err));
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), cacheable);
}
