/**
 * `kubecfg show`: evaluate each input (and `-e` code), find the Kubernetes
 * objects in it, drop identical duplicates (different ones are an error),
 * optionally annotate provenance and reorder like `update`, then print a
 * YAML stream or JSON. Errors print as `ERROR …` and exit 1, as kubecfg.
 */
import { extname } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import type { JsonValue } from '../../lang/common/json.js';
import type { CommandParams } from '../../protocol/index.js';
import {
  addProvenance,
  findObjects,
  formatJsonObjects,
  formatYamlDocuments,
  orderForApply,
  removeDuplicates,
  type FoundObject,
} from '../../render/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { InputError } from './data-inputs.js';
import { createEngine, type Engine } from './engine.js';
import { describeError } from './errors.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { readInputValues } from './inputs.js';
import { colorEnabled, CommandOutput } from './output.js';
import type { RunContext } from './run-context.js';

class InputFailure extends Error {
  constructor(
    readonly input: string,
    readonly failure: unknown,
  ) {
    super(`error reading ${input}: ${describeError(failure)}`);
  }
}

function overlaySnippet(flags: Flags, absInput: string): string | undefined {
  const quote = (p: string): string => `@'${p.replace(/'/g, "''")}'`;
  if (flags.given('overlay-code-file')) return `(import ${quote(absInput)}) + (import ${quote(flags.path(flags.str('overlay-code-file')))})`;
  if (flags.given('overlay-code')) return `(import ${quote(absInput)}) + (${flags.str('overlay-code')}\n)`;
  return undefined;
}

export function runShow(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('show', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(colorEnabled(params.tty));
  let exitCode = 0;
  try {
    const gates = gatesFor(flags);
    for (const w of gates.warnings) out.log('WARNING', w);
    const overlaid = flags.given('overlay-code') || flags.given('overlay-code-file');
    if (overlaid) gates.require('overlay', flags.given('overlay-code') ? '--overlay-code' : '--overlay-code-file');
    if (flags.given('export-dir')) throw new InputError('--export-dir is not available in this build (it needs the Go template engine for --export-filename-format)');
    if (flags.str('reorder') === 'client') throw new InputError('--reorder=client is not defined by kubecfg (its help says TODO); use --reorder=server');

    let engine: Engine | undefined;
    const getEngine = (): Engine => (engine ??= createEngine(flags, recorder, params.cwd, ctx.shouldStop));
    let found: FoundObject[] = [];
    const collect = (value: JsonValue, file: string): void => {
      for (const f of findObjects(value)) found.push(flags.bool('show-provenance') ? { ...f, object: addProvenance(f, file) } : f);
    };

    if (flags.given('exec')) {
      try {
        collect(getEngine().evaluateInline('<cmdline>', flags.str('exec')), '');
      } catch (err) {
        throw new InputFailure('<cmdline>', err);
      }
    }
    for (const arg of params.args) {
      const abs = flags.path(arg);
      try {
        const overlay = overlaid ? overlaySnippet(flags, abs) : undefined;
        if (overlay !== undefined) {
          const ext = extname(abs).toLowerCase();
          if (ext !== '.jsonnet' && ext !== '.libsonnet' && ext !== '.json') throw new InputError(`${arg}: overlays compose with Jsonnet and JSON inputs only, not ${ext}`);
          collect(getEngine().evaluateInline('<overlay>', overlay), arg);
        } else {
          for (const value of readInputValues(abs, arg, recorder, getEngine)) collect(value, arg);
        }
      } catch (err) {
        throw new InputFailure(arg, err);
      }
    }
    found = removeDuplicates(found);
    if (flags.str('reorder') === 'server') found = orderForApply(found);
    const objects = found.map((f) => f.object);
    out.stdout(flags.str('format') === 'json' ? formatJsonObjects(objects) : formatYamlDocuments(objects));
  } catch (err) {
    out.log('ERROR', err instanceof InputFailure ? err.message : describeError(err));
    exitCode = 1;
  }
  return { exitCode, stdout: exitCode === 0 ? out.stdoutText() : '', stderr: out.stderrText(), deps: recorder.deps(), cacheable: true };
}
