/**
 * `kubecfg --features=traceback traceback RENDERED.yaml:LINE`: finds the
 * object holding LINE in `show --show-provenance` output, its provenance
 * file and path, and the field on the line (render/traceback); logs
 * `INFO  Tracing file="F", path="P"` and prints the Jsonnet (or YAKL) line
 * that defined the value (lang/jsonnet/trace.ts); with --all, every field the
 * value passed through, latest first, as kubecfg prints ursonnet's roots. As kubecfg, a relative
 * provenance file is taken from the root of the git checkout holding the
 * YAML file (the directory with `.git`), else from the current directory.
 * An object that came out of a List is found among the List's items (see
 * render/traceback/target.ts). Never throws: failures print `ERROR why` and exit 1.
 */
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { evaluate } from '../../lang/jsonnet/index.js';
import { TraceError, traceRoots, traceValuePath, type PathStep } from '../../lang/jsonnet/trace.js';
import type { CommandParams } from '../../protocol/index.js';
import { quote as goQuote } from '../../lang/go/strconv.js';
import {
  formatValuePath,
  listItemIndex,
  parseFileLine,
  TracebackError,
  targetSteps,
  tracebackTarget,
} from '../../render/traceback/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { createEngine } from './engine.js';
import { describeError } from './errors.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { CommandOutput, logStyle, traceTo } from './output.js';
import type { RunContext } from './run-context.js';
import { locationLine, tracedModule } from './trace-location.js';

/** kubecfg's `utils.SearchUp(".git", file)`: the directory holding `.git`, nearest the file first. */
function gitRootOf(recorder: DependencyRecorder, file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (recorder.probe(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export function runTraceback(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('traceback', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    gates.require('traceback');
    const { file: yamlFile, line } = parseFileLine(params.args[0]!);
    const yamlAbs = flags.path(yamlFile);
    const text = new TextDecoder('utf-8').decode(recorder.readFile(yamlAbs));
    const target = tracebackTarget(text, line, yamlFile);
    const root = gitRootOf(recorder, yamlAbs) ?? '.';
    // kubecfg joins even an absolute annotation to the root; an absolute path is kept as it is here.
    const sourceFile = isAbsolute(target.provenanceFile) ? target.provenanceFile : join(root, target.provenanceFile);
    const tracing = (steps: PathStep[]): void =>
      out.log('INFO', `Tracing file=${goQuote(sourceFile)}, path=${goQuote(formatValuePath(steps))}`);
    if (!target.listItem) tracing(targetSteps(target));
    const engine = createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out));
    const module = tracedModule(engine, resolve(params.cwd, sourceFile), gates);
    // A List item: which one is found by identity in the rendered value, then traced as items[i].
    const steps = target.listItem
      ? targetSteps(target, listItemIndex(evaluate(module, engine.options), target))
      : targetSteps(target);
    if (target.listItem) tracing(steps);
    if (flags.bool('all'))
      for (const loc of traceRoots(module, steps, engine.options)) out.stdout(locationLine(loc, params.cwd));
    else out.stdout(locationLine(traceValuePath(module, steps, engine.options), params.cwd));
  } catch (err) {
    out.log('ERROR', err instanceof TracebackError || err instanceof TraceError ? err.message : describeError(err));
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), true);
}
