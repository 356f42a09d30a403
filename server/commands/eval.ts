/**
 * `kubecfg eval` (feature `eval`): evaluate one input as Jsonnet, or `--exec` code, and
 * print the value as YAML (default) or JSON without looking for Kubernetes
 * objects. `-e EXPR` evaluates EXPR with `$` bound to the input's value (the
 * expression becomes a hidden field of an object extending that value, so `$`
 * is the whole value) and `kubecfg` predefined (RFC06). `-k` lists the keys.
 * A `.yakl` input (feature yakl) is compiled and evaluated under its own
 * name; `-o jsonnet` prints its readable Jsonnet without evaluating (and,
 * when an expression doesn't parse, the unformatted code with the error).
 */
import { DependencyRecorder } from '../../cache/index.js';
import { isJsonObject, sortedKeys, type JsonValue } from '../../lang/common/json.js';
import type { CommandParams } from '../../protocol/index.js';
import { formatEval } from '../../render/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { createEngine, type Engine } from './engine.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { evalInputValue } from './inputs.js';
import { describeError, EvalError } from './errors.js';
import { withHint } from '../../render/predefine.js';
import { readableYakl } from './yakl-eval.js';
import { importOf, isYaklFile } from './yakl-overlay.js';
import { isRemoteLocation } from '../remote-inputs/remote-location.js';
import { CommandOutput, logStyle, traceTo } from './output.js';
import type { RunContext } from './run-context.js';
import { locationLine, traceEvalValue } from './trace-location.js';

const EXPR_FIELD = '__kubecfg_eval_expr__';

export function runEval(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('eval', params);
  const recorder = new DependencyRecorder();
  const out = new CommandOutput(logStyle(params.tty));
  let exitCode = 0;
  let keepStdout = false;
  try {
    const gates = gatesFor(flags, ctx.rc);
    for (const w of gates.warnings) out.log('WARNING', w);
    gates.require('eval');
    let engine: Engine | undefined;
    const getEngine = (): Engine =>
      (engine ??= createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates, traceTo(out)));
    const file = params.args[0]!;
    const abs = isRemoteLocation(file) ? file : flags.path(file);
    const yakl = isYaklFile(file) && !flags.given('exec');
    if (yakl) gates.require('yakl', file);
    let value: JsonValue;
    if (flags.str('format') === 'jsonnet') {
      if (!yakl) throw new EvalError(`-o jsonnet prints the Jsonnet of a .yakl file; ${file} is not one`);
      const readable = readableYakl(file, recorder.readFile(abs));
      out.stdout(readable.code);
      // The unformatted code goes out with the located error, so it is kept despite the failure.
      if (readable.error !== undefined) {
        keepStdout = true;
        throw readable.error;
      }
      return outcome();
    } else if (flags.given('exec')) {
      value = getEngine().evaluateInline('<cmdline>', flags.str('exec'));
    } else if (flags.given('expr')) {
      // The expression becomes a hidden field of an object extending the file's value, so `$` is that value.
      const code = `(${importOf(abs)} + { ${EXPR_FIELD}:: (${flags.str('expr')}\n) }).${EXPR_FIELD}`;
      value = getEngine().evaluateInline('<cmdline>', code);
    } else {
      value = yakl ? getEngine().evaluateYaklFile(file) : evalInputValue(file, getEngine());
    }
    if (flags.bool('show-keys')) {
      if (!isJsonObject(value))
        throw new EvalError(
          `--show-keys needs an object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
        );
      out.stdout(
        sortedKeys(value)
          .map((k) => k + '\n')
          .join(''),
      );
    } else {
      out.stdout(formatEval(value, flags.str('format') === 'json' ? 'json' : 'yaml'));
    }
    // --trace: where the printed value was defined, as kubecfg prints it after the value (trace-location.ts).
    if (flags.bool('trace')) {
      if (flags.given('exec'))
        throw new EvalError('--trace follows FILE or -e EXPR to where it was defined; not --exec');
      const expr = flags.given('expr') ? flags.str('expr') : undefined;
      out.stderr(locationLine(traceEvalValue(getEngine(), abs, expr, gates), params.cwd));
    }
  } catch (err) {
    out.log('ERROR', withHint(describeError(err)));
    exitCode = 1;
  }
  return outcome();

  function outcome(): CommandOutcome {
    return {
      exitCode,
      stdout: exitCode === 0 || keepStdout ? out.stdoutText() : '',
      stderr: out.stderrText(),
      deps: recorder.deps(),
      cacheable: true,
    };
  }
}
