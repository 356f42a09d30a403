/**
 * The inputs of every command that takes kubecfg's common eval flags (show,
 * diff, update, delete, validate): each file, then `-e CODE`, with
 * `--overlay-code`/`--overlay-code-file` composed onto each file once their
 * gate is checked (kubecfg's readObjs).
 */
import type { DependencyRecorder } from '../../cache/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { ShowInput } from '../../render/index.js';
import type { Gates } from '../../render/features/gates.js';
import { requireCleatGate } from './cleat-input.js';
import type { Engine } from './engine.js';
import type { Flags } from './flags.js';
import { InputFailure, readInputFiles, type ReadInputs } from './input-files.js';
import { requireYaklGate } from './yakl-overlay.js';

export function readEvalInputs(
  params: CommandParams,
  flags: Flags,
  gates: Gates,
  recorder: DependencyRecorder,
  getEngine: () => Engine,
): ReadInputs {
  const overlaid = flags.given('overlay-code') || flags.given('overlay-code-file');
  if (overlaid) gates.require('overlay', flags.given('overlay-code') ? '--overlay-code' : '--overlay-code-file');
  requireYaklGate(gates, flags, params.args);
  requireCleatGate(gates, params.args);
  const read = readInputFiles({ params, flags, gates, recorder, getEngine, overlaid });
  const inputs: ShowInput[] = [...read.inputs];
  // kubecfg appends the `-e` code after the files (readObjs: paths = append(paths, dataURL)).
  if (flags.given('exec')) {
    try {
      inputs.push({ file: '', value: getEngine().evaluateInline('<cmdline>', flags.str('exec')) });
    } catch (err) {
      throw new InputFailure('<cmdline>', err);
    }
  }
  return { inputs, cacheable: read.cacheable };
}
