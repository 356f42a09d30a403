/**
 * The worker half of `kubecfg httpd` (command `httpd`, one hook file per
 * job, args = [FILE]):
 *  - check mode (no request in the params): FILE must evaluate to a
 *    top-level function with a `request` parameter; exit 1 with a clear
 *    error otherwise, so the daemon serves nothing;
 *  - call mode (HTTPD_REQUEST_FLAG holds the request body): call that
 *    function with `request` = the body, as kubecfg does (a code-typed TLA),
 *    and print the result as the jsonnet command prints JSON.
 * The body was parsed as JSON and re-serialized by the daemon before it got
 * here, so it is data and nothing else (hazard 23). .yakl files (feature
 * yakl) are compiled first. Other TLA/ext flags apply as for any command.
 */
import { DependencyRecorder } from '../../cache/index.js';
import { topLevelShape, type Module } from '../../lang/jsonnet/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from './outcome.js';
import { createEngine, type Engine } from './engine.js';
import { describeError } from './errors.js';
import { gatesFor } from './features.js';
import { Flags } from './flags.js';
import { CommandOutput } from './output.js';
import type { RunContext } from './run-context.js';
import { isYaklFile } from './yakl-overlay.js';
import type { Gates } from '../../render/features/gates.js';

/** Worker-only key of params.flags carrying the canonical JSON body (never on the wire: not in the catalog). */
export const HTTPD_REQUEST_FLAG = '__httpd-request';

/** The error a file without a usable top-level function gets at start-up. */
class HookShapeError extends Error {}

function hookModule(engine: Engine, file: string, gates: Gates): Module {
  if (isYaklFile(file)) {
    gates.require('yakl', file);
    return engine.compileYaklFile(file).module;
  }
  return engine.parseFile(file);
}

export function runHttpdHook(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('httpd', params);
  const recorder = new DependencyRecorder();
  // The bare message: kubecfg's 500 body is the error's text, and the daemon's log line adds the level.
  const out = new CommandOutput('bare');
  let exitCode = 0;
  try {
    const gates = gatesFor(flags, ctx.rc);
    gates.require('httpd');
    const file = params.args[0]!;
    const engine = createEngine(flags, recorder, params.cwd, ctx.shouldStop, undefined, gates);
    const module = hookModule(engine, file, gates);
    const body = params.flags[HTTPD_REQUEST_FLAG];
    if (typeof body !== 'string') {
      const shape = topLevelShape(module, engine.options);
      if (shape.kind !== 'function')
        throw new HookShapeError(
          `${file}: httpd calls the file's top-level function with the request, but the file's value is ${article(shape.type)}`,
        );
      if (!shape.params.includes('request'))
        throw new HookShapeError(
          `${file}: the top-level function has no parameter named request (its parameters: ${shape.params.join(', ') || 'none'})`,
        );
    } else {
      const options = {
        ...engine.options,
        tlas: { ...engine.options.tlas, request: { kind: 'code' as const, value: body } },
        // std.trace lines go to the daemon's log stream (the metacontroller example logs with it).
        trace: (message: string) => out.stderr(message + '\n'),
      };
      out.stdout(engine.evaluateToString(module, options) as string);
    }
  } catch (err) {
    out.stderr(err instanceof HookShapeError ? err.message + '\n' : describeError(err) + '\n');
    exitCode = 1;
  }
  return out.outcome(exitCode, recorder.deps(), true);
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
