/**
 * `kubecfg jsonnet FILE`: what the `jsonnet` command prints for FILE (or, with
 * -e, for FILE as code): JSON by default, `-S` a string as plain text, `-y` a
 * YAML stream of JSON documents, `-m DIR` one file per top-level field written
 * into DIR with the file names listed on stdout (as `jsonnet -m`); errors in
 * go-jsonnet's wording on stderr, exit 1. Uses the same importer, -J paths,
 * ext vars and TLAs as show.
 */
import { resolve } from 'node:path';
import { DependencyRecorder } from '../../cache/index.js';
import { SourceFile } from '../../lang/common/source.js';
import { JsonnetError, parseModule } from '../../lang/jsonnet/index.js';
import type { CommandParams } from '../../protocol/index.js';
import type { CommandOutcome } from './outcome.js';
import { createEngine } from './engine.js';
import { umaskOf, writeUserFile } from './user-files.js';
import { describeError } from './errors.js';
import { Flags } from './flags.js';
import type { RunContext } from './run-context.js';
import { withStdoutBytes } from './stdout-bytes.js';

export function runJsonnet(params: CommandParams, ctx: RunContext): CommandOutcome {
  const flags = new Flags('jsonnet', params);
  const recorder = new DependencyRecorder();
  let stdout = '';
  let stderr = '';
  let exitCode = 0;
  const trace = (line: string): void => {
    stderr += line + '\n';
  };
  try {
    const engine = createEngine(flags, recorder, params.cwd, ctx.shouldStop, flags.int('max-stack'), undefined, trace);
    const arg = params.args[0]!;
    const module = flags.bool('exec') ? parseModule(new SourceFile('<cmdline>', arg)) : engine.parseFile(arg);
    if (flags.given('multi')) {
      const files = engine.evaluateToString(module, {
        ...engine.options,
        mode: 'multi',
        ...(flags.bool('string') ? { stringOutput: true } : {}),
      });
      if (typeof files === 'string') throw new Error('internal: single output in multi-file mode');
      stdout = writeMulti(resolve(params.cwd, flags.str('multi')), flags.str('multi'), files, umaskOf(params));
      return { exitCode, stdout, stderr, deps: recorder.deps(), cacheable: false };
    }
    const mode = flags.bool('string') ? 'string' : flags.bool('yaml-stream') ? 'yamlStream' : 'json';
    if (mode === 'json') {
      // The JSON as UTF-8 bytes, newline included: printed (or sent by the worker) as they are,
      // decoded to a string only where something reads `stdout` (server/worker/stdout-bytes.ts).
      const bytes = engine.evaluateToBytes(module, engine.options);
      return withStdoutBytes<CommandOutcome>({ exitCode, stderr, deps: recorder.deps(), cacheable: true }, bytes);
    }
    const text = engine.evaluateToString(module, { ...engine.options, mode });
    if (typeof text !== 'string') throw new Error('internal: multi-file output in single-file mode');
    stdout = text.endsWith('\n') ? text : text + '\n';
  } catch (err) {
    // go-jsonnet's CLI prints its formatted error with Println: the trace's
    // last line keeps its trailing tab and a blank line follows, unlike the
    // trimmed text other commands embed in their own messages.
    stderr += (err instanceof JsonnetError ? err.format() : describeError(err)) + '\n';
    exitCode = 1;
  }
  return { exitCode, stdout, stderr, deps: recorder.deps(), cacheable: true };
}

/**
 * `jsonnet -m DIR`: each key of the result names a file under DIR, written
 * with the key's text; the paths are listed on stdout in key order, as
 * `jsonnet` prints them (DIR as the user gave it). Unlike the C++ command we
 * create missing sub-directories instead of failing (go-jsonnet's -c).
 */
function writeMulti(absDir: string, shownDir: string, files: Record<string, string>, umask: number): string {
  let listing = '';
  for (const name of Object.keys(files).sort()) {
    const target = resolve(absDir, name);
    if (target !== absDir && !target.startsWith(absDir.endsWith('/') ? absDir : absDir + '/')) {
      throw new Error(`multi mode: file name ${JSON.stringify(name)} leaves the output directory`);
    }
    writeUserFile(target, files[name]!, umask);
    listing += (shownDir.endsWith('/') ? shownDir : shownDir + '/') + name + '\n';
  }
  return listing;
}
