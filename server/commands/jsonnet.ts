/**
 * `kubecfg jsonnet FILE`: what the `jsonnet` command prints for FILE (or, with
 * -e, for FILE as code): JSON by default, `-S` a string as plain text, `-y` a
 * YAML stream of JSON documents; errors in go-jsonnet's wording on stderr,
 * exit 1. Uses the same importer, -J paths, ext vars and TLAs as show.
 */
import { DependencyRecorder } from '../../cache/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { parseModule } from '../../lang/jsonnet/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from '../worker/messages.js';
import { createEngine } from './engine.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';

export function runJsonnet(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('jsonnet', params);
  const recorder = new DependencyRecorder();
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  try {
    const engine = createEngine(flags, recorder, params.cwd, ctx.shouldStop, flags.int('max-stack'));
    const arg = params.args[0]!;
    const module = flags.bool('exec') ? parseModule(new SourceFile('<cmdline>', arg)) : engine.parseFile(arg);
    const mode = flags.bool('string') ? 'string' : flags.bool('yaml-stream') ? 'yamlStream' : 'json';
    const text = engine.evaluateToString(module, { ...engine.options, mode });
    if (typeof text !== 'string') throw new Error('internal: multi-file output in single-file mode');
    stdout = text.endsWith('\n') ? text : text + '\n';
  } catch (err) {
    stderr = describeError(err) + '\n';
    exitCode = 1;
  }
  return { exitCode, stdout, stderr, deps: recorder.deps(), cacheable: true };
}
